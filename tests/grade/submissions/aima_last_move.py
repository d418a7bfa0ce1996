# Returns the last action, not the best one.
def alphabeta_search(state, game):
    return game.actions(state)[-1]
