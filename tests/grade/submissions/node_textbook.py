# Alpha-beta over Node objects with .children and .value (the lab reports' Python form).
import math


def alpha_beta_pruning(node, alpha, beta, is_maximizing):
    if not node.children:
        return node.value
    if is_maximizing:
        value = -math.inf
        for child in node.children:
            value = max(value, alpha_beta_pruning(child, alpha, beta, False))
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        return value
    value = math.inf
    for child in node.children:
        value = min(value, alpha_beta_pruning(child, alpha, beta, True))
        beta = min(beta, value)
        if alpha >= beta:
            break
    return value
