def minimax(depth, index, maximizing, values, alpha, beta):
    best = values[index]
    while best == best:  # never ends
        best = best + 0
    return best
