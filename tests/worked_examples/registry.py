"""Every worked example of the lecture-note catalogues, and the tests that reproduce it.

One :class:`Example` per worked example the catalogues list (seed 000 §2.x, seed 001 parts 1
and 2 E1…, seed 002 by source line, seed 004 E1…), plus the exercises and implementation
notes with numbers that the library reproduces. Status is one of

* ``"reproduced"``: ``tests`` names the test node ids (``path::function``) that assert the
  example's numbers (to the printed precision; the correct value where the print is wrong,
  with the catalogue's erratum in ``erratum``);
* ``"not reproducible"``: ``reason`` says why (a random split without its seed, data or
  weights only in a missing figure, a purely qualitative or conceptual example);
* ``"no library counterpart"``: a reproducible fact that no library method computes (a
  property of a SciPy distribution, arithmetic in the prose, a method the library lacks);
  ``reason`` names it.

``tests/worked_examples/test_registry.py`` checks that every entry has a status and a reason
or tests, that every test node exists, and (where the catalogues are at hand) that every
example id of the catalogues is listed.
"""

from __future__ import annotations

from dataclasses import dataclass

REPRODUCED = "reproduced"
NOT_REPRODUCIBLE = "not reproducible"
NO_COUNTERPART = "no library counterpart"
STATUSES = (REPRODUCED, NOT_REPRODUCIBLE, NO_COUNTERPART)

#: catalogue file of each seed key
CATALOGUES = {
    "000": "seed_000_003.md",
    "001-1": "seed_001_part1.md",
    "001-2": "seed_001_part2.md",
    "002": "seed_002.md",
    "004": "seed_004.md",
}


@dataclass(frozen=True)
class Example:
    """One worked example: where it is, what it shows, and how the test suite covers it."""

    seed: str
    id: str
    what: str
    status: str
    tests: tuple[str, ...] = ()
    reason: str = ""
    erratum: str = ""


W = "tests/worked_examples/"
S000 = W + "test_seed000_worked.py::"
S001 = W + "test_seed001_worked.py::"
S002 = W + "test_seed002_worked.py::"
S004 = W + "test_seed004_worked.py::"
GAP = "tests/linear_model/test_seed004_gapminder.py::"
KER = "tests/kernels/test_kernels.py::"
LOGS = "tests/linear_model/test_logistic_seeds.py::"
TREE = "tests/tree/test_tree_rpart_reference.py::"
QP = "tests/optimize/test_solve_qp.py::"

#: Node ids of tests that are being written alongside and may not exist yet in this checkout.
#: The registry test reports them instead of failing while their file is absent.
PENDING: frozenset[str] = frozenset()


def _r(seed, id, what, *tests, erratum=""):
    return Example(seed, id, what, REPRODUCED, tuple(tests), erratum=erratum)


def _n(seed, id, what, reason, *tests, erratum=""):
    return Example(seed, id, what, NOT_REPRODUCIBLE, tuple(tests), reason=reason, erratum=erratum)


def _o(seed, id, what, reason):
    return Example(seed, id, what, NO_COUNTERPART, reason=reason)


EXAMPLES: tuple[Example, ...] = (
    # ----- seed 000 + 003: Zupan & Štrumbelj; Vandin ------------------------------------------
    _r(
        "000",
        "§2.1",
        "Iris sample (Table 1.1): a petal-length split separates the two species",
        S000 + "test_s2_1_iris_sample_split_on_petal_length",
    ),
    _r(
        "000",
        "§2.2",
        "curse of dimensionality s(f, d) = f^(1/d): 0.8 and 0.63 at d = 10",
        S000 + "test_s2_2_curse_of_dimensionality_edges",
        erratum="seed 000 Appendix A E21: s(0.1, 10) = 0.794, printed 0.8",
    ),
    _r(
        "000",
        "§2.3",
        "out-of-bag fraction e^-1 = 0.368; (1 - 1/n)^n = 0.366032 at n = 100",
        S000 + "test_s2_3_out_of_bag_fraction",
    ),
    _r(
        "000",
        "§2.4",
        "variance of an average of B correlated predictors ρσ² + (1 − ρ)σ²/B",
        S000 + "test_s2_4_variance_of_correlated_average",
    ),
    _r(
        "000",
        "§2.5",
        "Table 3.1 body temperature: OLS, logistic MLE, stump (Gini 0.493827, "
        "entropy 0.991076 bits, threshold 37.10, weighted Gini 0.1778, gain 0.5900)",
        LOGS + "test_body_temperature_linear_fit_leaves_the_unit_interval",
        LOGS + "test_body_temperature_logistic_fit",
        LOGS + "test_body_temperature_without_the_healthy_37_is_separable",
        LOGS + "test_plain_gradient_ascent_on_raw_temperatures_is_slow",
        "tests/metrics/test_information.py::test_seed000_root_entropy",
        S000 + "test_s2_5_stump_on_table_3_1",
    ),
    _r(
        "000",
        "§2.6",
        "logistic derivative g' = g(1 − g), g(0) = 0.5",
        "tests/_core/test_logistic_core.py::test_binary_gradient_matches_finite_differences",
        S001 + "test_e9_sigmoid_is_one_half_at_the_boundary",
    ),
    _r(
        "000",
        "§2.7",
        "log-likelihood gradient Σ(y − f)x, the linear-regression form",
        "tests/_core/test_logistic_core.py::test_binary_gradient_matches_finite_differences",
        "tests/linear_model/test_logistic.py::test_unpenalised_gradient_vanishes",
    ),
    _r(
        "000",
        "§2.8",
        "ridge limits: λ = 0 is OLS, λ → ∞ leaves β0 = ȳ",
        "tests/linear_model/test_ridge.py::test_zero_alpha_is_least_squares",
        "tests/linear_model/test_ridge.py::test_huge_alpha_gives_mean_and_zero_slopes",
        erratum="seed 000 Appendix A E9: the printed closed form penalises β0",
    ),
    _r(
        "000",
        "§2.9",
        "polynomial-kernel feature maps (6-D quadratic, cubic 0.262144, "
        "Vandin Q = 2 0.49, RBF series 0.1845195)",
        KER + "test_zupan_cubic_map_gives_0_262144",
        KER + "test_vandin_quadratic_map_gives_0_49",
        KER + "test_vandin_rbf_series_gives_0_1845195",
        KER + "test_zupan_quadratic_maps_and_gaussian_factorisation",
    ),
    _r(
        "000",
        "§2.10",
        "Gaussian kernel factorisation",
        KER + "test_zupan_quadratic_maps_and_gaussian_factorisation",
    ),
    _r(
        "000",
        "§2.11",
        "kernel ridge primal ≡ dual with the linear kernel",
        "tests/kernel_methods/test_kernel_methods.py::test_primal_equals_dual_on_the_linear_kernel",
    ),
    _r(
        "000",
        "§2.12",
        "string sequences: k-spectrum Gram matrices (k = 2, 3); the catalogue's edit "
        "distances are no library method",
        KER + "test_spectrum_kernel_on_the_catalogue_sequences",
        "tests/kernel_methods/test_kernel_methods.py::test_string_kernel_through_a_precomputed_gram",
    ),
    _r(
        "000",
        "§2.13",
        "Vandin Exercise 4: SVs {3, 5, 7}, w = (0, 1), b = 0, margin 1",
        "tests/svm/test_svm.py::test_seed003_exercise4_hard_margin",
        "tests/svm/test_svm.py::test_seed003_exercise4_moved_points_two_support_vectors",
        "tests/plot/test_decision_boundary.py::test_margins_and_support_vectors_of_seed003_exercise4",
    ),
    _r(
        "000",
        "§2.14",
        "sigmoid kernel is not PSD: eigenvalue −0.013248",
        KER + "test_sigmoid_counterexample_eigenvalue",
        erratum="seed 000 Appendix A E22",
    ),
    _r(
        "000",
        "§2.15",
        "Vandin representation: MSE 4/45 on x1 vs ≈ 3.3e-5 on x2",
        S000 + "test_s2_15_representation_changes_the_error",
    ),
    _r(
        "000",
        "§2.16",
        "Vandin complexity: fit counts C(d,k), Σ(d − j), Σ j",
        S000 + "test_s2_16_fit_call_counts",
    ),
    _r(
        "000",
        "§2.17",
        "figure set-ups: leakage of selection outside folds, random-label "
        "overfitting, the XOR pair in wrapper selection (other figures: no data)",
        S000 + "test_s2_17_selection_outside_the_folds_leaks",
        S000 + "test_s2_17_random_labels_are_fitted_as_features_grow",
        S000 + "test_s2_17_xor_pair_forward_misses_backward_keeps",
    ),
    _n("000", "§2.18", "table of contents page numbers", "not an example: page numbers"),
    _r(
        "000",
        "§6.1",
        "regression-tree criterion: x = 1..8, split at 7.5, SSE 30.857 vs 50.75",
        S000 + "test_s6_1_regression_tree_split_minimises_the_sse_sum",
        erratum="seed 000 Appendix A E1: SSE weighted by proportions picks 4.5",
    ),
    # ----- seed 001 part 1: Artelt ------------------------------------------------------------
    _r(
        "001-1",
        "E1",
        "always-1 classifier on 90/10 labels: accuracy 0.9, F1 18/19",
        "tests/metrics/test_metrics_classification.py::test_seed001_e1_imbalanced_accuracy",
    ),
    _o(
        "001-1",
        "E2",
        "degree-2 features of (2, 3): (2, 3, 6, 4, 9, 1)",
        "the library's PolynomialFeatures gives powers per column (R's poly), no interaction "
        "columns; the polynomial kernel holds their inner products (E3)",
    ),
    _r(
        "001-1",
        "E3",
        "(xᵀy + 1)² = φ(x)ᵀφ(y) = 4 at x = (1, 2), y = (3, −1)",
        KER + "test_artelt_quadratic_map_gives_4",
    ),
    _r(
        "001-1",
        "E4",
        "Beta(2, 3) prior, D = (1,0,1,1,0,1): Beta(6, 5), log evidence −4.65396",
        "tests/bayes/test_conjugate.py::test_seed001_e4_beta_bernoulli",
    ),
    _r(
        "001-1",
        "E5",
        "ROC endpoints t = 0 → (1, 1), t = 1 → (0, 0) under the strict '>' rule; AUC 1 and 0.5",
        S001 + "test_e5_roc_endpoints_under_the_strict_rule",
        erratum="seed 001 part 1 Appendix A, line 2823: the extreme cases are swapped",
    ),
    _r(
        "001-1",
        "E6",
        "k = 1 fits the training set; k = |D| predicts the majority",
        "tests/neighbors/test_knn.py::test_one_neighbour_has_zero_training_error_on_distinct_points",
        "tests/neighbors/test_knn.py::test_all_neighbours_predict_the_majority_class",
    ),
    _r(
        "001-1",
        "E7",
        "elastic net reduces to ridge and lasso",
        "tests/linear_model/test_ridge.py::test_elastic_net_with_zero_l1_ratio_is_ridge",
        "tests/linear_model/test_lasso_seed_examples.py::test_elastic_net_without_l1_is_the_notes_ridge",
        erratum="seed 001 part 1 Appendix A, line 1632: (λ₂/2)‖w‖² convention",
    ),
    _r(
        "001-1",
        "E8",
        "Huber loss value and derivative continuous at ±δ",
        "tests/_core/test_robust_losses.py::test_huber_loss_values_follow_the_notes",
    ),
    _r(
        "001-1",
        "E9",
        "sigmoid(0) = 0.5; p > 0.5 ⇔ wᵀx > 0",
        S001 + "test_e9_sigmoid_is_one_half_at_the_boundary",
    ),
    _r(
        "001-1",
        "E10",
        "Gini and entropy: same argmax, maxima 0.5 and ln 2",
        S001 + "test_e10_gini_and_entropy_maxima",
        "tests/tree/test_tree_classes.py::test_entropy_zero_log_zero_and_pure_node",
        erratum="seed 001 part 1 Appendix A, line 2432: same argmax only",
    ),
    _o(
        "001-1",
        "E11",
        "|H| = 2^|X| labelings; 2^d feature subsets",
        "counting in the prose; no estimator output",
    ),
    _n(
        "001-1",
        "E12",
        "growth function of sign(w1 x + w2)",
        "erroneous in the notes (Appendix A, lines 398–406): the example is to be ignored",
    ),
    _r(
        "001-1",
        "E13",
        "MAP with Gaussian prior = ridge with λ = σ²τ",
        "tests/linear_model/test_bayes.py::test_predictive_mean_is_ridge_with_sigma2_alpha",
    ),
    _r(
        "001-1",
        "E14",
        "orthonormal X: lasso = soft-thresholded Xᵀy",
        "tests/linear_model/test_lasso_seed_examples.py::test_orthonormal_lasso_is_soft_thresholded_least_squares",
        "tests/_solvers/test_cd_solver.py::test_orthonormal_design_is_soft_thresholded_least_squares",
    ),
    _r(
        "001-1",
        "E15",
        "Fig. 4.8: copies of feature 2 plus noise; elastic net keeps 2, 3, 4, the lasso does not",
        S001 + "test_e15_elastic_net_groups_the_noisy_copies",
    ),
    _n(
        "001-1",
        "E16",
        "tree / forest figures at max_depth 1, 4, 8",
        "figures only; the data is not given",
    ),
    _n("001-1", "E17", "4-fold CV illustration (Fig. 7.4)", "an illustration, no numbers"),
    _n("001-1", "E18", "degree 3 vs 42 with equal test score", "illustrative only, no data"),
    _r(
        "001-1",
        "E19",
        "Fig. 4.6: three far-away points pull OLS, not Huber (qualitative, "
        "re-created on simulated data)",
        "tests/linear_model/test_robust.py::test_huber_resists_outliers",
    ),
    _r(
        "001-1",
        "Ex. 2.3.1",
        "Bernoulli naive Bayes ML estimates and rule",
        "tests/naive_bayes/test_naive_bayes.py::test_seed001_bernoulli_ml_estimates_are_class_frequencies",
        "tests/naive_bayes/test_naive_bayes.py::test_seed001_bernoulli_rule_is_the_notes_formula",
    ),
    _r(
        "001-1",
        "Ex. 4.13.2",
        "XᵀX + λI is invertible for λ > 0, also when d > n",
        "tests/linear_model/test_ridge.py::test_normal_equations_hold",
        "tests/linear_model/test_ridge.py::test_zero_alpha_singular_design_falls_back_to_min_norm_svd",
    ),
    _r(
        "001-1",
        "Ex. 4.13.3",
        "d > n: least squares still has the minimum-norm minimiser",
        "tests/linear_model/test_least_squares.py::test_p_greater_than_n_with_svd_gives_minimum_norm_solution",
    ),
    _r(
        "001-1",
        "Ex. 4.13.7",
        "weighted least squares: integer weights equal repeated rows",
        "tests/linear_model/test_least_squares.py::test_integer_weights_equal_repeated_rows_and_zero_weights_drop_rows",
        "tests/linear_model/test_ridge.py::test_integer_weights_equal_repeated_rows",
    ),
    _r(
        "001-1",
        "Ex. 4.13.10",
        "lasso on orthonormal columns: w = sign(r)(|r| − λ)+",
        "tests/linear_model/test_lasso_seed_examples.py::test_orthonormal_lasso_is_soft_thresholded_least_squares",
        erratum="seed 001 part 1 Appendix A, line 2035: needs unit-norm columns",
    ),
    _r(
        "001-1",
        "Ex. 4.13.11",
        "k1 + k2, αk1, k1·k2 are kernels",
        KER + "test_algebra_matches_elementwise_operations",
        KER + "test_positive_definite_kernels_pass_the_mercer_check",
    ),
    _r(
        "001-1",
        "Ex. 4.13.4",
        "centred x and y: the optimal bias is 0",
        S001 + "test_ex_4_13_4_centred_data_have_zero_intercept",
    ),
    _r(
        "001-1",
        "Ex. 5.6.3",
        "Σ log(1 + exp(−y wᵀx)), y ∈ {−1, 1}, equals the NLL (5.7)",
        S001 + "test_ex_5_6_3_plus_minus_one_loss_is_the_negative_log_likelihood",
    ),
    _r(
        "001-1",
        "Ex. 5.6.1",
        "gradient of the NLL + λ‖w‖²",
        "tests/linear_model/test_logistic.py::test_l2_stationarity",
        "tests/_core/test_logistic_core.py::test_binary_gradient_matches_finite_differences",
    ),
    _r(
        "001-1",
        "Ex. 5.6.4",
        "kernelised logistic regression; the linear kernel is plain (L2) logistic regression",
        "tests/kernel_methods/test_kernel_methods.py::test_linear_kernel_is_scikit_learns_l2_logistic",
        "tests/kernel_methods/test_kernel_methods.py::test_kernel_logistic_equals_explicit_feature_map_fit",
    ),
    _r(
        "001-1",
        "Ex. 5.6.6",
        "Poisson regression log-likelihood and gradient",
        "tests/linear_model/test_glm.py::test_poisson_loglik_is_the_notes_log_likelihood",
    ),
    # ----- seed 001 part 2: Artelt ------------------------------------------------------------
    _r(
        "001-2",
        "E1",
        "always-1 classifier on 90/10 labels (same as part 1 E1)",
        "tests/metrics/test_metrics_classification.py::test_seed001_e1_imbalanced_accuracy",
    ),
    _r(
        "001-2",
        "E2",
        "ROC endpoints and AUC (same as part 1 E5)",
        S001 + "test_e5_roc_endpoints_under_the_strict_rule",
        erratum="seed 001 part 2 §6, line 2823",
    ),
    _r(
        "001-2",
        "E3",
        "R² can be negative; (7.5) = (7.6) for OLS with an intercept",
        "tests/metrics/test_information.py::test_explained_variance_r2_equals_r2_for_ols_with_intercept",
        "tests/metrics/test_information.py::test_explained_variance_r2_constant_y",
        "tests/metrics/test_metrics_regression.py::test_nmse_is_one_minus_r2",
    ),
    _n("001-2", "E4", "degree 3 vs 42", "qualitative only"),
    _o("001-2", "E5", "2^d feature subsets", "counting in the prose"),
    _n("001-2", "E6", "4-fold CV figure", "qualitative; an illustration"),
    _n("001-2", "E7", "tree figures at max_depth 1, 4, 8", "data not given"),
    _n("001-2", "E8", "tree vs forest boundary figure", "qualitative; data not given"),
    _n("001-2", "E9", "forest regression vs tree figure", "qualitative; data not given"),
    _n("001-2", "E10", "k-means with k = 3 on two data sets", "data not given"),
    _n("001-2", "E11", "Voronoi tessellation figure", "data not given"),
    _n(
        "001-2",
        "E12",
        "agglomerative linkages figure",
        "data not given; the linkages are checked against SciPy and R on other data",
    ),
    _r(
        "001-2",
        "E14",
        "ε-neighbourhood spectral clustering, ε = 0.008, two components "
        "(re-created: the figure's data is not given)",
        "tests/cluster/test_spectral.py::test_epsilon_graph_two_components_like_the_notes",
    ),
    _n("001-2", "E13", "DBSCAN with different ε", "no ε values and no data given"),
    _n("001-2", "E15", "GMM figure", "data not given"),
    _o(
        "001-2",
        "E16",
        "argmax x⁶(1 − x)⁴ = 0.6",
        "a scalar optimisation; the library has no public scalar optimiser",
    ),
    _n(
        "001-2",
        "E17",
        "GD on ½‖Xw − y‖² with a step schedule (Fig. A.10)",
        "X and y are not given; plot only",
        erratum="seed 001 part 2 §6, line 4047: the gradient is XᵀXw − Xᵀy",
    ),
    _r(
        "001-2",
        "E18",
        "LP max x1 + 2x2 s.t. x ≥ 0, x1 + x2 = 42: x = (0, 42)",
        S001 + "test_pt2_e18_linear_programme_optimum",
    ),
    _r(
        "001-2",
        "E19",
        "QP with indefinite Q: optimum (0, 1), value 0",
        QP + "test_seed001_e19_nonconvex_qp",
    ),
    _r("001-2", "E20", "KKT example: x = (1, 1), λ* = 1, p* = d* = 2", QP + "test_seed001_e20_kkt"),
    _r(
        "001-2",
        "E21",
        "subgradient of |x| at 0 is [−1, 1]",
        "tests/_core/test_robust_losses.py::test_absolute_loss_and_subgradient",
        "tests/_core/test_penalties.py::test_soft_threshold_is_the_prox_of_the_absolute_value",
    ),
    _o(
        "001-2",
        "E22",
        "bivariate normal density at the origin 0.2485583",
        "a property of the normal distribution (SciPy)",
    ),
    _o("001-2", "E23", "normal MGF moments", "a property of the normal distribution"),
    _o(
        "001-2",
        "E24",
        "method of moments for the normal: the 1/n variance",
        "a sample moment; no estimator output",
    ),
    _r(
        "001-2",
        "E25",
        "Bernoulli MLE p = 0.6 on D = (0,0,0,0,1,1,1,1,1,1)",
        S001 + "test_pt2_e25_bernoulli_mle_is_the_posterior_mode_under_a_flat_prior",
        erratum="seed 001 part 2 §6, line 5601: 10 factors, not 8",
    ),
    _o("001-2", "E26", "Γ(a) = (a − 1)!", "a property of the Gamma function"),
    _o(
        "001-2",
        "E27",
        "Cov(X, X²) = 0 for symmetric X",
        "a property of the covariance",
    ),
    _r(
        "001-2",
        "E28",
        "k-means with k = 1: the mean",
        "tests/cluster/test_kmeans.py::test_one_cluster_is_the_mean",
    ),
    _r(
        "001-2",
        "E29",
        "argmin Σ‖d_i − x‖² is the mean (as E28)",
        "tests/cluster/test_kmeans.py::test_one_cluster_is_the_mean",
    ),
    # ----- seed 002: Welling (no worked numerical example; lines of the text) -----------------
    _n("002", "L63", "object-category counts", "motivation, no computation"),
    _n("002", "L89", "researcher at ease 90% of the time", "motivation"),
    _n("002", "L113", "20% blue sky", "motivation"),
    _n("002", "L121", "car weight/colour indexing X_{1,20}", "notation illustration"),
    _n("002", "L123", "bag-of-words count X_{10568,5076} = 4", "notation illustration"),
    _n("002", "L169", "10×10 patches live in 100-D", "illustration"),
    _o("002", "L173", "d(d − 1)/2 = 4950 projections at d = 100", "arithmetic in the prose"),
    _n("002", "L207", "compression game", "no numbers to reproduce"),
    _n("002", "L213", "10 data sets of size N (bias/variance)", "thought experiment, no data"),
    _n("002", "L225", "1 million pixels to 1 label", "motivation"),
    _r(
        "002",
        "L253",
        "an odd k never ties with two classes",
        S002 + "test_l253_odd_k_never_ties_with_two_classes",
    ),
    _n("002", "L269", "Amazon suggests 10 others", "motivation"),
    _n("002", "L273", "2 informative + 98 noisy features", "qualitative; no data or accuracy"),
    _n("002", "L295", "spam volume", "motivation"),
    _n("002", "L297", "generative spam story", "incomplete distribution (sums to 97.9% 'etc.')"),
    _o("002", "L313", "recode counts 0, 1, >1 → 0, 1, 2", "a data-recoding rule"),
    _n("002", "L333", "committee votes", "illustration"),
    _r(
        "002",
        "L363",
        "a zero count without smoothing forces the decision",
        "tests/naive_bayes/test_naive_bayes.py::test_multinomial_alpha0_zero_count_gives_posterior_zero_exactly",
    ),
    _o(
        "002",
        "L449",
        "tanh cost never exceeds 2",
        "the tanh-cost classifier is not in the library yet",
    ),
    _r(
        "002",
        "L481",
        "margin 1/‖w‖ on each side, width 2/‖w‖",
        "tests/svm/test_svm.py::test_seed003_exercise4_hard_margin",
        "tests/plot/test_decision_boundary.py::test_margins_and_support_vectors_of_seed003_exercise4",
    ),
    _n("002", "L1051", "KCCA word count 12", "illustration"),
    _r(
        "002",
        "L1101–1105",
        "unregularised kernel CCA gives λ = ρ = 1",
        "tests/cross_decomposition/test_properties.py::test_kernel_cca_unregularised_degenerates_and_warns",
    ),
    _r(
        "002",
        "L1225",
        "(n + d)!/(n! d!) polynomial features; 2^n all-subsets features",
        KER + "test_all_subsets_is_the_product_over_subset_features",
        S002 + "test_l1225_polynomial_kernel_feature_count",
    ),
    # ----- seed 004: Boily ----------------------------------------------------------------------
    _r(
        "004",
        "E1",
        "Gapminder complete cases: 7139 × 9 of 10545",
        "tests/datasets/test_datasets.py::test_gapminder_complete_cases",
    ),
    _r(
        "004",
        "E2",
        "OLS LE ~ IM + fert, 2011: XᵀX, XᵀY, β̂ = (79.677, −0.276, −0.443)",
        GAP + "test_e2_normal_equations",
        GAP + "test_e2_coefficients",
    ),
    _r(
        "004",
        "E3",
        "SSRes 2837.7, SSTot 11882.18, R² 0.761, R²a 0.758",
        GAP + "test_e3_sums_of_squares_and_r2",
        erratum="seed 004 §6, L650: R²a = 0.7583",
    ),
    _r(
        "004",
        "E4",
        "overall F = 259.76; critical F(2,163; 0.05) = 3.0518",
        GAP + "test_e4_overall_f_test",
        S004 + "test_e4_critical_value_of_f",
        erratum="seed 004 §6, L667: F* = 259.76, printed 258.169",
    ),
    _r(
        "004",
        "E5",
        "correlation of IM and fertility 0.8485 (blank in the text)",
        S004 + "test_e5_correlation_of_the_predictors",
        erratum="seed 004 §6, L686: value left blank",
    ),
    _r(
        "004",
        "E6",
        "t-test for β1: se 0.0248, t −11.14, critical t(163; 0.025) = 1.9746",
        GAP + "test_e6_t_test_for_infant_mortality",
        S004 + "test_e6_critical_value_of_t",
        erratum="seed 004 §6, L698/L712: df 163, not 164; σ̂² = 17.41, not 17.5",
    ),
    _r(
        "004",
        "E7",
        "coefficient table; ±2se intervals [78.1, 81.3], [−0.33, −0.23], [−1.27, 0.38]",
        GAP + "test_e7_coefficient_table",
        GAP + "test_e7_printed_summary_reads_like_r",
        S004 + "test_e7_two_standard_error_intervals",
        erratum="seed 004 §6, L729: β̂₂ = −0.444, printed 0.443",
    ),
    _r(
        "004",
        "E8",
        "reduced model LE ~ IM: γ̂1 = −0.2989, CI [−0.33, −0.27]",
        GAP + "test_e8_reduced_model",
    ),
    _r(
        "004",
        "E9",
        "kNN vs OLS on the ESL mixture (re-simulated)",
        "tests/datasets/test_simulators.py::test_knn_versus_least_squares_on_the_mixture",
    ),
    _r(
        "004",
        "E10",
        "LE high if > 72.45: 83/83; OLS classifier",
        LOGS + "test_e10_classes_split_at_the_median",
        LOGS + "test_e10_ols_classifier_is_least_squares_on_the_indicator",
    ),
    _r("004", "E11", "logit 0.68 → 0.663", LOGS + "test_e11_logit_arithmetic"),
    _r(
        "004",
        "E12",
        "logistic LE class ~ IM + fert: 4.59 − 0.22 IM − 0.06 fert; p̂ = 0.72",
        LOGS + "test_e12_coefficients_and_standard_errors",
        LOGS + "test_e12_likelihood_and_aic",
        LOGS + "test_e12_prediction_uses_fertility_4_not_24",
        erratum="seed 004 §6, L1066–L1068: fertility 4, printed 24",
    ),
    _n("004", "E13", "logistic on a random 116/50 split", "random split; the seed is unknown"),
    _r(
        "004",
        "E14",
        "LDA/QDA discriminants from the printed training statistics; rates",
        "tests/discriminant_analysis/test_discriminant_analysis.py::test_seed004_e14_lda_with_total_covariance_gives_the_printed_discriminants",
        "tests/discriminant_analysis/test_discriminant_analysis.py::test_seed004_e14_qda_without_log_determinant_gives_the_printed_discriminants",
        "tests/metrics/test_metrics_classification.py::test_seed004_e14_lda_rates",
        erratum="seed 004 §6, L1256–L1262: LDA used the total Σ",
    ),
    _n(
        "004",
        "E15",
        "ROC-optimal thresholds 0.28 / 0.73",
        "random split; the seed is unknown (the criterion is tested on other data)",
    ),
    _r(
        "004",
        "E16",
        "10-fold CV of LE ~ lgdppc: CV(10) 27.35, ŝe 12.38, intervals "
        "(2.59, 52.11) and (4.18, 4.46)",
        "tests/model_selection/test_cv_estimate.py::test_seed004_e16_arithmetic",
        S004 + "test_e16_printed_intervals",
        S004 + "test_e16_full_sample_fit",
        erratum="seed 004 §6, L1490: (4.18, 4.46), printed (4.18, 4.56)",
    ),
    _n(
        "004",
        "E17",
        "bootstrap M = 200: ŝe (2.51, 0.29)",
        "random resamples; the printed SEs lie outside the range of every seed tried (seed "
        "004 §6, L1518–L1523); the test pins the method's ≈ (1.87, 0.215) instead",
        S004 + "test_e17_bootstrap_standard_errors_are_not_the_printed_ones",
    ),
    _r(
        "004",
        "E18",
        "jackknife with the text's formula: ŝe (0.011, 0.001)",
        "tests/model_selection/test_jackknife.py::test_seed004_e18_formula",
        "tests/model_selection/test_jackknife.py::test_seed004_e18_standard",
    ),
    _r(
        "004",
        "E19",
        "curse of dimensionality: 0.33, 0.58, 0.90",
        "tests/metrics/test_metrics_regression.py::test_seed004_e19_curse_of_dimensionality",
    ),
    _n("004", "E20", "one-standard-error rule figure (ISLR)", "figure only; no data"),
    _r(
        "004",
        "E21",
        "glmnet lasso and ridge on Gapminder 2011",
        "tests/linear_model/test_lasso_seed_examples.py::test_e21_lasso_on_gapminder_2011",
        "tests/linear_model/test_lasso_seed_examples.py::test_e21_ridge_on_gapminder_2011",
    ),
    _r(
        "004",
        "E22",
        "PCA retention rules on eigenvalues 17, 8, 3, …: keep 4, 2, 3",
        "tests/decomposition/test_pca.py::test_seed004_e22_retention_rules",
    ),
    _r(
        "004",
        "E23",
        "polynomial regression d = 4 with ±2se bands",
        "tests/preprocessing/test_seed_examples.py::test_e23_polynomial_d4_with_bands",
    ),
    _r(
        "004",
        "E24",
        "step functions",
        "tests/preprocessing/test_seed_examples.py::test_e24_step_functions",
    ),
    _r(
        "004",
        "E25",
        "cubic and natural splines",
        "tests/preprocessing/test_seed_examples.py::test_e25_cubic_and_natural_splines",
    ),
    _r(
        "004",
        "E26",
        "MARS LE ~ fert",
        "tests/mars/test_mars_reference.py::test_seed004_e26_life_expectancy_on_fertility",
    ),
    _r(
        "004",
        "E27",
        "smoothing splines with spar 0 … 1.5",
        "tests/smoothing/test_smoothing_spline.py::test_seed_e27_spar_fits_go_from_interpolation_to_the_line",
    ),
    _n(
        "004",
        "E28",
        "GAM on Gapminder 2011: intercept 68.1186, prediction 84.6",
        "the smoothers' degrees of freedom are not given and the prediction is read off plots",
    ),
    _r(
        "004",
        "E29",
        "regression tree LE ~ IM + fert, 6 leaves",
        TREE + "test_e29_regression_tree_node_by_node",
        TREE + "test_e29_export_equals_rpart_print",
        TREE + "test_e29_from_bundled_gapminder",
        erratum="seed 004 §6, L2524 and L2541",
    ),
    _r(
        "004",
        "E30",
        "pruning at cp = 0.028, 0.06, 0.02; cp table",
        "tests/tree/test_tree_pruning.py::test_e30_prune_by_cp",
        "tests/tree/test_tree_pruning.py::test_e30_cp_table_without_cross_validation_columns",
    ),
    _r(
        "004",
        "E31",
        "classification tree: IM < 22.85",
        TREE + "test_e31_classification_tree",
        TREE + "test_e31_without_cp_keeps_the_gini_split",
        erratum="seed 004 §6, L2696: < 22.85, printed < 2.3",
    ),
    _n("004", "E32", "linear SVM on the random 116/50 split", "random split; the seed is unknown"),
    _n("004", "E33", "radial SVM on artificial data", "figure only; no data"),
    _n("004", "E34", "ANN forward propagation", "weights and inputs only in the missing figure"),
    _r(
        "004",
        "E35",
        "naive Bayes tumour diagnosis: posteriors 6.09e-4 / 1.92e-11",
        "tests/naive_bayes/test_naive_bayes.py::test_seed004_e35_reproduces_figure36_from_the_figure35_counts",
        "tests/naive_bayes/test_naive_bayes.py::test_seed004_e35_full_biopsy_tables_match_a_hand_count",
        erratum="seed 004 §6, L3260: 559 training rows, not 458",
    ),
    _r(
        "004",
        "E36",
        "inverse split-level importance 19/60 and 23/75",
        "tests/ensemble/test_forest_classes.py::test_split_level_importance_e36",
        erratum="seed 004 §6, L3396: 19/60 = 0.3167",
    ),
    _r(
        "004",
        "E37",
        "16 voters at 85% reach 99% by majority vote",
        S004 + "test_e37_sixteen_voters_at_85_percent",
    ),
    _r("004", "E38", "other numbers: the logit example (E11)", LOGS + "test_e11_logit_arithmetic"),
)
