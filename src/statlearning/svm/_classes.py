"""The public support-vector classifiers: SVC and NuSVC."""

from __future__ import annotations

import numbers
import warnings

import numpy as np

from .._validation import Boolean, InstanceOf, Interval, Options, RandomState
from ..base import ClassifierMixin, fit_context
from ..exceptions import NumericalWarning, external_stacklevel
from ._base import BaseSVM
from ._classification import BaseSVC

__all__ = ["SVC", "NuSVC"]

_CLASSIFIER_CONSTRAINTS = {
    **BaseSVM._parameter_constraints,
    "probability": [Boolean()],
    "class_weight": [Options({"balanced"}), InstanceOf(dict), None],
    "decision_function_shape": [Options({"ovr", "ovo"})],
    "break_ties": [Boolean()],
    "random_state": [RandomState()],
}


class SVC(ClassifierMixin, BaseSVC):
    """C-support vector classification, solved by our own SMO.

    Parameters
    ----------
    C : float, default=1.0
        Cost of a margin violation (> 0); ``np.inf`` is the hard margin (a warning when the
        data are not separable). ``class_weight`` and ``sample_weight`` multiply it per sample.
    kernel : {"linear", "poly", "rbf", "sigmoid", "laplacian", "cosine", "precomputed"}, \
Kernel or callable, default="rbf"
        A name (with ``gamma``, ``degree``, ``coef0``), a kernel object of
        :mod:`statlearning.kernels` (``RBF(gamma=[...])`` is the ARD Gaussian; sums, products
        and other composite kernels are evaluated into the training Gram matrix), or a callable
        ``kernel(X, Y)`` returning the Gram matrix. A kernel on sequences
        (:class:`~statlearning.kernels.Spectrum`) takes ``X`` as a sequence of strings (or one
        column of them): ``SVC(kernel=Spectrum(3)).fit(["ACGT…", …], y)``.
    degree : float, default=3
        Degree of ``"poly"``.
    gamma : {"scale", "auto"} or float, default="scale"
        γ of ``"rbf"``, ``"poly"``, ``"sigmoid"``, ``"laplacian"``. ``"scale"`` is
        ``1 / (n_features · Var(X))`` (the variance weighted by ``sample_weight``), ``"auto"``
        is ``1 / n_features``.
    coef0 : float, default=0.0
        ``r`` of ``"poly"`` and ``"sigmoid"``.
    shrinking : bool, default=True
        Shrink the working set of SMO (same solution, usually faster).
    probability : bool, default=False
        Fit Platt sigmoids on 5-fold cross-validated decision values, for
        :meth:`predict_proba`.
    tol : float, default=1e-3
        SMO stops when the maximal KKT violation is below ``tol``.
    cache_size : float, default=200
        Megabytes of kernel columns kept by SMO.
    class_weight : dict or "balanced", default=None
        Multiplier of ``C`` per class; ``"balanced"`` is ``n_samples / (n_classes · n_k)``.
    max_iter : int, default=-1
        Cap on SMO iterations per binary problem (−1: none beyond libsvm's safety cap).
    decision_function_shape : {"ovr", "ovo"}, default="ovr"
        Shape of :meth:`decision_function` for more than two classes.
    break_ties : bool, default=False
        With ``"ovr"`` and more than two classes, predict the largest one-vs-rest value
        instead of the one-vs-one vote.
    random_state : int, RandomState instance or None, default=None
        Folds of the internal cross-validation of ``probability=True``.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Class labels.
    class_weight_ : ndarray of shape (n_classes,)
        The resolved class weights.
    support_ : ndarray of shape (n_SV,)
        Indices of the support vectors, grouped by class.
    support_vectors_ : ndarray of shape (n_SV, n_features)
        The support vectors (empty for a precomputed kernel).
    n_support_ : ndarray of shape (n_classes,)
        Support vectors per class.
    dual_coef_ : ndarray of shape (n_classes - 1, n_SV)
        ``y_i α_i`` of the support vectors in every pair (scikit-learn's layout).
    intercept_ : ndarray of shape (n_classes·(n_classes−1)/2,)
        Intercept of each one-vs-one decision function.
    coef_ : ndarray of shape (n_classes·(n_classes−1)/2, n_features)
        Primal weights (linear kernel only).
    probA_, probB_ : ndarray of shape (n_classes·(n_classes−1)/2,)
        Platt's ``A`` and ``B`` per pair (``probability=True``; else empty).
    n_iter_ : ndarray of shape (n_classes·(n_classes−1)/2,)
        SMO iterations per pair.
    shape_fit_ : tuple
        Shape of the training ``X``.
    fit_status_ : int
        0 (fitted).
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Feature names, when ``X`` has them.

    See Also
    --------
    NuSVC : The same classifier parameterised by ν.
    SVR : Support-vector regression.

    Notes
    -----
    For labels ``y_i ∈ {−1, +1}`` (the first class of a pair is +1) and feature map ``φ``,

    .. math:: \\min_{w, b, \\xi} \\tfrac12\\|w\\|^2 + C \\sum_i c_i \\xi_i \\quad
              \\text{s.t. } y_i(w^T\\varphi(x_i) + b) \\ge 1 - \\xi_i,\\ \\xi_i \\ge 0,

    ``c_i`` = sample weight × class weight, whose dual ``min ½αᵀQα − Σα_i``, ``Q_ij = y_i y_j
    K(x_i, x_j)``, ``yᵀα = 0``, ``0 ≤ α_i ≤ C c_i`` is solved by SMO with Fan, Chen & Lin's
    second-order working-set selection, shrinking and an LRU cache of kernel columns
    (:mod:`statlearning._solvers.smo`), then, when at most 256 multipliers are free, moved onto
    the exact optimum of its active set by one linear solve. The intercept is the average of
    ``y_i − Σ_j α_j y_j K_ij`` over the free support vectors (``0 < α_i < C c_i``), as the notes
    advise (the midpoint of its feasible interval when none is free).

    Sign conventions. The notes (seed 002) write ``f(x) = wᵀx − b``: their ``b`` is
    ``−intercept_``. For two classes positive decision values mean ``classes_[1]`` (scikit-learn;
    libsvm's ``ρ`` is ``intercept_``); for more classes the one-vs-one values of pair ``(a, b)``
    are positive for class ``a`` and ``intercept_ = −ρ``, exactly as scikit-learn's ``SVC``.
    ``C`` is a cost (R's ``e1071::svm(cost=)``, scikit-learn's ``C``), not ISLR's "budget"; the
    notes' ν-SVM of Zupan (``C = 1/(νN)``) is ``SVC(C=1 / (nu * n_samples))``, not
    :class:`NuSVC`. RBF ``γ = 1/(2σ²)`` for a Gaussian of width σ.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.svm import SVC
    >>> X = np.array([[0.2, -1.4], [-2.1, 1.7], [0.9, 1.0], [-1.0, -3.1],
    ...               [-0.2, -1.0], [-0.2, 1.3], [2.0, -1.0], [0.5, 2.1]])
    >>> y = np.array([-1, 1, 1, -1, -1, 1, -1, 1])
    >>> svc = SVC(kernel="linear", C=np.inf, tol=1e-10).fit(X, y)
    >>> svc.support_.tolist(), np.round(np.abs(svc.dual_coef_), 6).tolist()
    ([4, 6, 2], [[0.25, 0.25, 0.5]])
    >>> np.round(svc.coef_, 6).tolist(), abs(round(float(svc.intercept_[0]), 6))
    ([[0.0, 1.0]], 0.0)
    """

    _parameter_constraints: dict = {
        **_CLASSIFIER_CONSTRAINTS,
        "C": [Interval(numbers.Real, 0.0, None, closed="neither")],
    }

    def __init__(
        self,
        *,
        C=1.0,
        kernel="rbf",
        degree=3,
        gamma="scale",
        coef0=0.0,
        shrinking=True,
        probability=False,
        tol=1e-3,
        cache_size=200,
        class_weight=None,
        max_iter=-1,
        decision_function_shape="ovr",
        break_ties=False,
        random_state=None,
    ):
        self.C = C
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.shrinking = shrinking
        self.probability = probability
        self.tol = tol
        self.cache_size = cache_size
        self.class_weight = class_weight
        self.max_iter = max_iter
        self.decision_function_shape = decision_function_shape
        self.break_ties = break_ties
        self.random_state = random_state

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Fit the one-vs-one C-SVMs.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data; the square Gram matrix with ``kernel="precomputed"``.
        y : array-like of shape (n_samples,)
            Class labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Per-sample multiplier of ``C`` (zero: the sample is left out).

        Returns
        -------
        self : SVC
            The fitted classifier.
        """
        return self._fit_classifier(X, y, sample_weight)


class NuSVC(ClassifierMixin, BaseSVC):
    """Nu-support vector classification (Schölkopf et al.), solved by our own SMO.

    Parameters
    ----------
    nu : float, default=0.5
        ν ∈ (0, 1]: an upper bound on the fraction of margin errors and a lower bound on the
        fraction of support vectors (of each pair's weighted samples). Infeasible when
        ``ν > 2 min(n₊, n₋) / (n₊ + n₋)`` for some pair (an error; ``n₊``, ``n₋`` the classes'
        sums of ``sample_weight``). Where only ``class_weight`` makes it infeasible, see Notes.
    kernel : {"linear", "poly", "rbf", "sigmoid", "laplacian", "cosine", "precomputed"}, \
Kernel or callable, default="rbf"
        As :class:`SVC`.
    degree : float, default=3
        Degree of ``"poly"``.
    gamma : {"scale", "auto"} or float, default="scale"
        As :class:`SVC`.
    coef0 : float, default=0.0
        ``r`` of ``"poly"`` and ``"sigmoid"``.
    shrinking : bool, default=True
        Shrink the working set of SMO.
    probability : bool, default=False
        Fit Platt sigmoids for :meth:`predict_proba`.
    tol : float, default=1e-3
        SMO's stopping tolerance.
    cache_size : float, default=200
        Megabytes of kernel columns kept by SMO.
    class_weight : dict or "balanced", default=None
        Multiplier of each sample's bound per class (see Notes; ``"balanced"`` equalises the
        classes' weights, which keeps every ν ≤ 1 feasible).
    max_iter : int, default=-1
        Cap on SMO iterations per binary problem.
    decision_function_shape : {"ovr", "ovo"}, default="ovr"
        As :class:`SVC`.
    break_ties : bool, default=False
        As :class:`SVC`.
    random_state : int, RandomState instance or None, default=None
        Folds of the internal cross-validation of ``probability=True``.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Class labels.
    class_weight_ : ndarray of shape (n_classes,)
        The resolved class weights.
    support_ : ndarray of shape (n_SV,)
        Indices of the support vectors, grouped by class.
    support_vectors_ : ndarray of shape (n_SV, n_features)
        The support vectors.
    n_support_ : ndarray of shape (n_classes,)
        Support vectors per class.
    dual_coef_ : ndarray of shape (n_classes - 1, n_SV)
        Coefficients in :class:`SVC`'s layout and scale (see Notes).
    intercept_ : ndarray of shape (n_classes·(n_classes−1)/2,)
        Intercepts.
    coef_ : ndarray of shape (n_classes·(n_classes−1)/2, n_features)
        Primal weights (linear kernel only).
    probA_, probB_ : ndarray of shape (n_classes·(n_classes−1)/2,)
        Platt's parameters (``probability=True``).
    n_iter_ : ndarray of shape (n_classes·(n_classes−1)/2,)
        SMO iterations per pair.
    shape_fit_ : tuple
        Shape of the training ``X``.
    fit_status_ : int
        0 (fitted).
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Feature names, when ``X`` has them.

    See Also
    --------
    SVC : The C-parameterised classifier.

    Notes
    -----
    libsvm's scaling of the ν-SVM dual: ``min ½αᵀQα`` s.t. ``yᵀα = 0``, ``Σα_i = ν Σc_i``,
    ``0 ≤ α_i ≤ c_i`` (``c_i`` the weights), kept feasible by moving pairs within a class. Its
    solution, divided by the margin ``r`` (the mean of the two classes' intercept terms), is
    the C-SVM solution with ``C = 1/r`` (Chang & Lin 2001): ``dual_coef_`` and ``intercept_``
    are stored in that scale, so that margin errors have ``|dual_coef_| = 1/r`` and the
    decision function is :class:`SVC`'s with ``C = 1/r``. The notes' "ν-SVM" (seed 000, Zupan:
    ``C = 1/(νN)``) is a different parametrisation of :class:`SVC`, not this estimator.

    Class weights. libsvm's ν-SVC, and with it R's ``e1071::svm`` and scikit-learn's
    ``NuSVC``, ignore ``class_weight``; here it multiplies the bounds ``c_i`` as in
    :class:`SVC`, so that a heavier class costs more per margin error. The constraints then
    need ``ν ≤ ν_max = 2 min(W₊, W₋) / (W₊ + W₋)`` (``W`` the classes' weight sums). ν rises
    to ``ν_max`` as the equivalent C-SVM's ``C`` falls to 0 (Chang & Lin 2001), and as
    ``C → 0`` the weighted C-SVM tends to the constant decision for the class of larger total
    weight (all coefficients 0, ``|intercept_| = 1`` in the stored scale). When
    ``ν`` is feasible for the sample weights alone but ``class_weight`` takes ``ν_max`` below
    it, that pair is given this end of its ν-path, with a warning; weights so lopsided mean
    "predict the heavy class", and refusing them would make ``class_weight`` unusable for
    exactly the users who set it. Infeasibility that the class balance itself causes (without
    class weights) stays an error: there ν is the mistake.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.svm import NuSVC
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 2))
    >>> y = (X[:, 0] + X[:, 1] > 0).astype(int)
    >>> clf = NuSVC(nu=0.3, kernel="linear").fit(X, y)
    >>> bool(clf.support_.size >= 0.3 * 40)
    True
    """

    _parameter_constraints: dict = {
        **_CLASSIFIER_CONSTRAINTS,
        "nu": [Interval(numbers.Real, 0.0, 1.0, closed="right")],
    }

    def __init__(
        self,
        *,
        nu=0.5,
        kernel="rbf",
        degree=3,
        gamma="scale",
        coef0=0.0,
        shrinking=True,
        probability=False,
        tol=1e-3,
        cache_size=200,
        class_weight=None,
        max_iter=-1,
        decision_function_shape="ovr",
        break_ties=False,
        random_state=None,
    ):
        self.nu = nu
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.shrinking = shrinking
        self.probability = probability
        self.tol = tol
        self.cache_size = cache_size
        self.class_weight = class_weight
        self.max_iter = max_iter
        self.decision_function_shape = decision_function_shape
        self.break_ties = break_ties
        self.random_state = random_state

    def _fold_feasible(self, ys, sample_weight):
        """Whether ν is feasible for the pair's balance of sample weights (class weights aside)."""
        return _nu_max(ys, sample_weight) >= self.nu * (1 - 1e-12)

    def _pair_problem(self, idx, ys, weights, sample_weight):
        if not self._fold_feasible(ys, sample_weight):
            w_pos, w_neg = sample_weight[ys > 0].sum(), sample_weight[ys < 0].sum()
            raise ValueError(
                f"NuSVC: specified nu={self.nu} is infeasible for the class balance: a pair of "
                f"classes with weights {w_pos:g} and {w_neg:g} allows at most "
                f"nu = {_nu_max(ys, sample_weight):.6g}."
            )
        nu_max = _nu_max(ys, weights)
        if nu_max < self.nu * (1 - 1e-12):
            # class_weight took ν past the end of its path (C → 0 of the weighted C-SVM)
            if not getattr(self, "_warned_saturated", False):
                self._warned_saturated = True
                warnings.warn(
                    f"NuSVC: class_weight leaves no feasible nu={self.nu} for a pair of classes "
                    f"(at most nu = {nu_max:.3g} with these weights); that pair is fitted at the "
                    "end of the nu-path, the constant decision for the class of larger total "
                    "weight (see Notes).",
                    UserWarning,
                    stacklevel=external_stacklevel(),
                )
            return None
        w_pos, w_neg = weights[ys > 0].sum(), weights[ys < 0].sum()
        alpha0 = np.zeros(idx.size)
        for sign in (1.0, -1.0):
            remaining = self.nu * (w_pos + w_neg) / 2
            for t in np.flatnonzero(ys == sign):
                alpha0[t] = min(weights[t], remaining)
                remaining -= alpha0[t]
        return np.zeros(idx.size), weights.astype(np.float64), alpha0, True

    def _pair_solution(self, alpha, rho, ys):
        r_pos, r_neg = rho[0], -rho[1]
        r = 0.5 * (r_pos + r_neg)
        if not r > 0:
            warnings.warn(
                f"NuSVC: the margin of the nu={self.nu} solution is not positive (r={r:.3g}); "
                "the classes overlap completely. Try a smaller nu.",
                NumericalWarning,
                stacklevel=external_stacklevel(),
            )
            r = 1.0
        return ys * alpha / r, 0.5 * (r_pos - r_neg) / r

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Fit the one-vs-one ν-SVMs.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data; the square Gram matrix with ``kernel="precomputed"``.
        y : array-like of shape (n_samples,)
            Class labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Per-sample weights (the bound of each multiplier).

        Returns
        -------
        self : NuSVC
            The fitted classifier.
        """
        self._warned_saturated = False
        return self._fit_classifier(X, y, sample_weight)


def _nu_max(ys, weights):
    """The largest feasible ν of one pair: ``2 min(W₊, W₋) / (W₊ + W₋)``."""
    w_pos, w_neg = weights[ys > 0].sum(), weights[ys < 0].sum()
    return 2 * min(w_pos, w_neg) / (w_pos + w_neg)
