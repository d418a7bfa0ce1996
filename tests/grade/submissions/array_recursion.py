def minimax(depth, index, maximizing, values, alpha, beta):
    # forgot the leaf test: recurses for ever
    return minimax(depth + 1, index * 2, not maximizing, values, alpha, beta)
