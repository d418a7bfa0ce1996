# Expectimax with alpha-beta at MAX and MIN nodes; a chance node averages its children,
# each weighted by its probability, searched with a full window.
import math


def expectimax(node, alpha, beta, maximizing):
    if not node.children:
        return node.value
    if node.kind == "chance":
        return sum(child.probability * expectimax(child, -math.inf, math.inf, child.kind == "max")
                   for child in node.children)
    best = -math.inf if node.kind == "max" else math.inf
    for child in node.children:
        v = expectimax(child, alpha, beta, child.kind == "max")
        if node.kind == "max":
            best = max(best, v)
            alpha = max(alpha, best)
        else:
            best = min(best, v)
            beta = min(beta, best)
        if alpha >= beta:
            break
    return best
