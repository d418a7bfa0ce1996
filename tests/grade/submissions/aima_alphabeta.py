# alphabeta_search as aima-python writes it (games.py), in a student's own words.
import math


def alphabeta_search(state, game):
    player = game.to_move(state)

    def max_value(state, alpha, beta):
        if game.terminal_test(state):
            return game.utility(state, player)
        v = -math.inf
        for a in game.actions(state):
            v = max(v, min_value(game.result(state, a), alpha, beta))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v

    def min_value(state, alpha, beta):
        if game.terminal_test(state):
            return game.utility(state, player)
        v = math.inf
        for a in game.actions(state):
            v = min(v, max_value(game.result(state, a), alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    best_score, best_action = -math.inf, None
    for a in game.actions(state):
        v = min_value(game.result(state, a), best_score, math.inf)
        if v > best_score:
            best_score, best_action = v, a
    return best_action
