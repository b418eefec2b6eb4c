"""Generalised additive models."""
