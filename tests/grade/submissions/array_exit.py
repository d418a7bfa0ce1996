import sys


def minimax(depth, index, maximizing, values, alpha, beta):
    if depth == 3:
        sys.exit("done")
    return minimax(depth + 1, index * 2, not maximizing, values, alpha, beta)
