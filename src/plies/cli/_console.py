"""The rich console that commands print their output to."""

from __future__ import annotations

from rich.console import Console

__all__ = ["output_console"]


class _PipeConsole(Console):
    """A console that lets a closed pipe reach the command line's own handler
    (rich's default exits with status 1: ``plies games | head -1`` is no error)."""

    def on_broken_pipe(self) -> None:
        """Write nothing more, and raise :class:`BrokenPipeError` (exit status 0)."""
        self.quiet = True
        raise BrokenPipeError


def output_console() -> Console:
    """A console on standard output: no highlighting, long lines left whole."""
    return _PipeConsole(highlight=False, soft_wrap=True)
