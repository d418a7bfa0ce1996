# Alpha-beta over nodes that say whose move it is (node.kind), so unbalanced trees and
# trees where a player moves twice are searched right.
import math


def alphabeta(node, depth, alpha, beta, maximizing):
    if depth == 0 or not node.children:
        return node.value
    if node.kind == "max":
        best = -math.inf
        for child in node.children:
            best = max(best, alphabeta(child, depth - 1, alpha, beta, child.kind == "max"))
            alpha = max(alpha, best)
            if alpha >= beta:
                break
        return best
    best = math.inf
    for child in node.children:
        best = min(best, alphabeta(child, depth - 1, alpha, beta, child.kind == "max"))
        beta = min(beta, best)
        if alpha >= beta:
            break
    return best
