# Expectimax (CS188): MAX takes the largest value, MIN the smallest, a chance node the
# average of its children weighted by their probabilities; nothing is pruned.
def expectimax(node, alpha, beta, maximizing):
    if not node.children:
        return node.value
    values = [expectimax(child, alpha, beta, child.kind == "max") for child in node.children]
    if node.kind == "chance":
        return sum(child.probability * v for child, v in zip(node.children, values))
    return max(values) if node.kind == "max" else min(values)
