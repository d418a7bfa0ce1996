def minimax(depth, index, maximizing, values, alpha, beta)
    return values[index]
