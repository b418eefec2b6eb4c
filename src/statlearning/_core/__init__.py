"""Private mathematics on ndarrays: no estimators, no scikit-learn, no I/O.

Vocabulary used throughout ``_core`` and ``_solvers``:

``X``
    the feature matrix, shape ``(n_samples, n_features)``; never modified in place.
``A``
    a *design* matrix: ``X`` with a leading column of ones when an intercept is fitted, rows
    scaled by ``sqrt(sample_weight)`` for weighted least squares. ``k`` is its number of columns.
``y``
    the response, shape ``(n_samples,)``.
``sample_weight`` / ``w``
    non-negative prior (precision) weights, R's ``weights``.
``coef`` / ``intercept``
    fitted parameters; ``coef`` never contains the intercept.
``kept``
    boolean mask over design columns: ``False`` marks a column aliased with earlier ones (R's
    ``NA`` coefficient).
``eta`` / ``mu``
    linear predictor and mean (generalised linear models).
"""
