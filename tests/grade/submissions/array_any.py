# Alpha-beta on a complete tree in an array, for any branching and depth (read from the
# number of values): children of (depth, index) are index*B .. index*B + B - 1.
import math


def alphabeta(depth, index, maximizing, values, alpha, beta):
    branching, height = _shape(len(values))
    if depth == height:
        return values[index]
    best = -math.inf if maximizing else math.inf
    for i in range(branching):
        v = alphabeta(depth + 1, index * branching + i, not maximizing, values, alpha, beta)
        if maximizing:
            best = max(best, v)
            alpha = max(alpha, best)
        else:
            best = min(best, v)
            beta = min(beta, best)
        if alpha >= beta:
            break
    return best


def _shape(n):
    for b in range(2, 11):
        d, size = 0, 1
        while size < n:
            size *= b
            d += 1
        if size == n:
            return b, d
    raise ValueError(n)
