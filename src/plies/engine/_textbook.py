"""Minimax and alpha-beta in the textbook max/min form, for games.

Here the two players are MAX (the player to move at the root) and MIN; every value
is from MAX's point of view, as in the textbooks. This form exists once, for teaching
and for checking the fast engine: it has no transposition table and no move ordering
beyond the game's own hint, so its node counts are the classical ones. Chance nodes
are averaged (expectiminimax), each outcome searched with a full window.
"""

from __future__ import annotations

import math
from typing import Any

from plies.engine._context import SearchContext
from plies.engine._negamax import NodeFunction, overrides, unchecked_play
from plies.engine._scores import terminal_score

__all__ = ["make_minimax"]

INF = math.inf


def make_minimax(ctx: SearchContext, *, prune: bool) -> NodeFunction:
    """Build ``value(state, depth, alpha, beta, ply)``: MAX's value, pruning if ``prune``.

    MAX is whoever is to move in the state the search starts from (``ply == 0``).
    Without ``prune`` the window is ignored (plain minimax / expectiminimax).
    """
    game = ctx.game
    terminal_value = game.terminal_value
    evaluate = game.evaluate
    to_move = game.to_move
    legal_moves = game.legal_moves
    play = unchecked_play(game)
    is_chance = game.is_chance
    has_chance = game.has_chance
    ply_weight = 0 if has_chance else 1
    order_hint = game.order_moves if overrides(game, "order_moves") else None
    noisy_moves = game.quiescence_moves if overrides(game, "quiescence_moves") else None
    max_player = -1

    def terminal_for_max(state: Any, outcome: float, ply: int) -> float:
        """MAX's score of a terminal state: sooner wins and later losses score higher."""
        score = terminal_score(outcome, ply, ply_weight)
        return score if to_move(state) == max_player else -score

    def root_value(state: Any, depth: float, alpha: float, beta: float, ply: int) -> float:
        """The entry point: MAX is the player to move in ``state``."""
        nonlocal max_player
        max_player = to_move(state)
        return value(state, depth, alpha, beta, ply)

    def value(state: Any, depth: float, alpha: float, beta: float, ply: int) -> float:
        ctx.nodes += 1
        if ctx.nodes >= ctx.next_check:
            ctx.check()
        outcome = terminal_value(state)
        if outcome is not None:
            ctx.leaves += 1
            return terminal_for_max(state, outcome, ply)
        if depth <= 0:
            ctx.leaves += 1
            ctx.horizon_hits += 1
            if noisy_moves is not None:
                return quiesce(state, alpha, beta, ply)
            return evaluate(state, max_player)
        if has_chance and is_chance(state):
            total = 0.0
            for chance_outcome, probability in game.chance_outcomes(state):
                if probability > 0:
                    child = play(state, chance_outcome)
                    total += probability * value(child, depth, -INF, INF, ply)
            return total
        moves = legal_moves(state)
        if order_hint is not None:
            moves = order_hint(state, moves)
        if to_move(state) == max_player:
            best = -INF
            for move in moves:
                score = value(play(state, move), depth - 1, alpha, beta, ply + 1)
                if score > best:
                    best = score
                    if ply == 0:
                        ctx.root_move = move
                if prune and best > alpha:
                    alpha = best
                    if alpha >= beta:
                        ctx.cutoffs += 1
                        break
            return best
        best = INF
        for move in moves:
            score = value(play(state, move), depth - 1, alpha, beta, ply + 1)
            best = min(best, score)
            if prune and best < beta:
                beta = best
                if alpha >= beta:
                    ctx.cutoffs += 1
                    break
        return best

    def quiesce(state: Any, alpha: float, beta: float, ply: int) -> float:
        """Below the horizon: the player to move may stand pat or play a noisy move."""
        assert noisy_moves is not None
        best = evaluate(state, max_player)
        maximizing = to_move(state) == max_player
        for move in noisy_moves(state):
            if prune and (best >= beta if maximizing else best <= alpha):
                break
            if prune:
                alpha, beta = (max(alpha, best), beta) if maximizing else (alpha, min(beta, best))
            score = quiescence_value(play(state, move), alpha, beta, ply + 1)
            best = max(best, score) if maximizing else min(best, score)
        return best

    def quiescence_value(state: Any, alpha: float, beta: float, ply: int) -> float:
        ctx.nodes += 1
        if ctx.nodes >= ctx.next_check:
            ctx.check()
        ctx.leaves += 1
        outcome = terminal_value(state)
        if outcome is not None:
            return terminal_for_max(state, outcome, ply)
        if has_chance and is_chance(state):
            return evaluate(state, max_player)
        return quiesce(state, alpha, beta, ply)

    return root_value
