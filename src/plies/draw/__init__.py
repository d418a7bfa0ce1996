"""Drawings of game trees and searches (work in progress)."""
