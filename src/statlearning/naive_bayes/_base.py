"""What every naive Bayes classifier shares: prediction from the joint log-likelihood."""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .._core.class_labels import (
    binary_log_odds,
    check_binary_threshold,
    label_repr,
    log_normalise_rows,
    threshold_labels,
)
from .._core.compiled import kernel_array
from ..base import PosteriorClassifierMixin


class NaiveBayesMixin(PosteriorClassifierMixin):
    """Prediction methods of a naive Bayes classifier.

    A subclass implements ``_validate_X(X)`` (validation at predict time) and
    ``_log_likelihood(X)`` (``Σ_j log P(x_j | class k)``, shape (n, K), ``−inf`` for an
    impossible class) and sets ``classes_`` and ``_log_prior`` (``log π_k``) in ``fit``.

    Posteriors are computed in log space: ``log P(k | x) = log π_k + log P(x | k) − logsumexp``.
    A class with zero likelihood gets posterior exactly 0; a sample with zero likelihood
    under *every* class has no posterior and raises a ``ValueError`` naming its rows.
    """

    def _checked(self, X):
        check_is_fitted(self, "classes_")
        return kernel_array(self._validate_X(X))

    def predict_log_likelihood(self, X):
        """Log-likelihood ``log P(x | class k) = Σ_j log P(x_j | k)`` of each sample.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Columns follow ``classes_``; ``−inf`` where a class gives the sample zero
            probability.
        """
        return self._log_likelihood(self._checked(X))

    def predict_joint_log_proba(self, X):
        """Unnormalised log posterior ``log π_k + log P(x | k)`` (scikit-learn's name).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        X = self._checked(X)
        return self._log_likelihood(X) + self._log_prior

    def predict_joint_proba(self, X):
        """Unnormalised posterior ``π_k · P(x | k)`` ("prior × likelihood").

        These are the numbers the lecture notes print as the "posterior" of the tumour
        example (Boily, Figure 36); their ratio is the posterior odds. With many features
        they underflow to 0: prefer :meth:`predict_joint_log_proba` then.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        with np.errstate(under="ignore"):
            return np.exp(self.predict_joint_log_proba(X))

    def predict_log_proba(self, X):
        """Log posterior probabilities (columns follow ``classes_``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            :math:`\\log P(k \\mid x_i)`: :meth:`predict_joint_log_proba` normalised by its
            log-sum-exp over the classes of each row; ``−inf`` where a class gives the sample
            zero probability.

        Raises
        ------
        ValueError
            If some sample has zero likelihood under every class (possible with ``alpha=0``).
        """
        return log_normalise_rows(self.predict_joint_log_proba(X), type(self).__name__)

    def decision_function(self, X):
        """Log posterior odds ``S₁ − S₀`` (two classes), else the joint log-likelihoods.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
            Two classes: :math:`S_1 - S_0 = \\log\\frac{P(c_1\\mid x)}{P(c_0\\mid x)}`, where
            :math:`S_k = \\log\\pi_k + \\sum_j \\log P(x_j\\mid c_k)` and
            :math:`c_k` is ``classes_[k]`` (``±inf`` where one class has zero likelihood);
            larger means more likely ``classes_[1]``, as scikit-learn's binary convention.
            More classes: :meth:`predict_joint_log_proba` (one column per class, as
            scikit-learn's discriminant analysis).

        Raises
        ------
        ValueError
            If some sample has zero likelihood under both classes (possible with ``alpha=0``).
        """
        scores = self.predict_joint_log_proba(X)
        if scores.shape[1] == 2:
            return binary_log_odds(scores, type(self).__name__)
        return scores

    def predict(self, X):
        """The maximum a posteriori class, or the threshold rule ``S₁ > S₀ + θ``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
            With ``decision_threshold=None``, the class with the largest posterior (ties go
            to the first class in ``classes_``). With a threshold ``t``, ``classes_[1]`` where
            :meth:`decision_function` exceeds :math:`\\theta = \\log(t/(1-t))` (strictly,
            the posterior of ``classes_[1]`` exceeding ``t``), else ``classes_[0]``.
        """
        if getattr(self, "decision_threshold", None) is None:
            return super().predict(X)
        log_odds = self.decision_function(X)  # first: it checks that the model is fitted
        return threshold_labels(self.classes_, log_odds, self.decision_threshold)

    def _check_threshold(self):
        """At the end of ``fit``: a decision threshold needs two classes.

        (The ``multi_class`` tag is set by each class's ``__sklearn_tags__``: scikit-learn's
        ``ClassifierMixin`` resets the classifier tags after the mixins.)
        """
        check_binary_threshold(self.decision_threshold, self.classes_.size, type(self).__name__)


def check_class_weights(class_weight, classes, owner):
    """Every class must carry positive total weight (else its parameters are undefined)."""
    empty = np.flatnonzero(~(class_weight > 0))
    if empty.size:
        names = ", ".join(label_repr(c) for c in classes[empty])
        raise ValueError(
            f"{owner}: class {names} has zero total sample_weight, so its distribution is "
            "undefined; drop that class from y or give it positive weights."
        )


def feature_names(estimator) -> list[str]:
    """``feature_names_in_`` as strings, else ``x0, x1, …`` (the library's term names)."""
    if hasattr(estimator, "feature_names_in_"):
        return [str(n) for n in estimator.feature_names_in_]
    return [f"x{j}" for j in range(estimator.n_features_in_)]


def report_unseen(unseen, handle_unknown, owner, names):
    """Raise (``"error"``) or warn (``"warn"``) about values unseen at fit time."""
    if not unseen or handle_unknown == "ignore":
        return
    j, value, count = unseen[0]
    detail = f"feature {names[j]!r}: level {value:g}"
    if count > 1:
        detail += f" and {count - 1} more unseen value(s)"
    if len(unseen) > 1:
        detail += f"; {len(unseen) - 1} other feature(s) also have unseen levels"
    if handle_unknown == "error":
        raise ValueError(
            f"{owner}: levels unseen at fit time ({detail}). Set handle_unknown='warn' or "
            "'ignore' to skip them (treated as missing values)."
        )
    warnings.warn(
        f"{owner}: levels unseen at fit time were skipped as missing values ({detail}). Set "
        "handle_unknown='ignore' to silence this, or 'error' to raise.",
        UserWarning,
    )
