def minimax(depth, index, maximizing, values, alpha, beta):
    hog = [values[0]] * (10**10)  # 80 GB: past any memory limit
    return hog[0]
