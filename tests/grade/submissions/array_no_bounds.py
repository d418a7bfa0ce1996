# The lab reports' minimax with alpha-beta on a binary tree in an array (GeeksforGeeks style).
MAX, MIN = 1000, -1000


def minimax(depth, nodeIndex, maximizingPlayer, values, alpha, beta):
    if depth == 3:
        return values[nodeIndex]
    if maximizingPlayer:
        best = MIN
        for i in range(0, 2):
            val = minimax(depth + 1, nodeIndex * 2 + i, False, values, MIN, MAX)
            best = max(best, val)
            alpha = max(alpha, best)
            if beta <= alpha:
                break
        return best
    best = MAX
    for i in range(0, 2):
        val = minimax(depth + 1, nodeIndex * 2 + i, True, values, MIN, MAX)
        best = min(best, val)
        beta = min(beta, best)
        if beta <= alpha:
            break
    return best
