"""Mixture models: :class:`GaussianMixture` fitted by EM (seed 001 part 2, §9.5)."""

from ._gaussian_mixture import GaussianMixture

__all__ = ["GaussianMixture"]
