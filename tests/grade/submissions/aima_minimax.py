# minimax_decision: right moves, but no pruning.
def minimax_decision(state, game):
    player = game.to_move(state)

    def max_value(state):
        if game.terminal_test(state):
            return game.utility(state, player)
        return max(min_value(game.result(state, a)) for a in game.actions(state))

    def min_value(state):
        if game.terminal_test(state):
            return game.utility(state, player)
        return min(max_value(game.result(state, a)) for a in game.actions(state))

    return max(game.actions(state), key=lambda a: min_value(game.result(state, a)))
