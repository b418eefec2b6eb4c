"""Write the user guide: one page per family, and the "R function → statlearning" page.

Each family is one entry of :data:`FAMILIES`: its title, the packages it covers, a paragraph, and
rows (method, statlearning objects, the lecture notes' sections, R, scikit-learn). The family pages
and the collected R table are generated from these rows, so the two never disagree. A public
package that no entry covers (a family added to the library) gets a page listing its ``__all__``,
so it joins the guide at the next build.

The notes are cited by number: Notes 000 (Zupan & Štrumbelj, *Machine Learning for Data Science
1*, chapters), Notes 001 (Artelt, *Introduction to Machine Learning: Supplementary notes*,
sections), Notes 002 (Welling, *A First Encounter with Machine Learning*, chapters), Notes 003
(Vandin's slides on kernels, SVR and feature selection), Notes 004 (Boily, *Statistical Methods for
Supervised Learning*, sections; it follows ISLR).
"""

from __future__ import annotations

from pathlib import Path

from apigen import heading, module_all, public_modules, write_sources

HERE = Path(__file__).resolve().parent

# Modules that are not a family of methods (documented in the API reference only).
NOT_FAMILIES = {"base", "exceptions", "plot"}


def _o(*names: str) -> str:
    return ", ".join(f":obj:`~statlearning.{name}`" for name in names)


# (method, objects, notes, R, scikit-learn)
FAMILIES: list[dict] = [
    dict(
        page="linear_model",
        title="Linear regression and regularisation",
        packages=["linear_model"],
        intro="Least squares with R's inference (``summary()`` as ``summary(lm)``, intervals as "
        "``predict.lm``), ridge, the lasso and the elastic net by glmnet's coordinate descent, "
        "robust losses and Bayesian linear regression.",
        rows=[
            (
                "Ordinary least squares, t and F tests, intervals",
                _o("linear_model.LinearRegression"),
                "Notes 004 §2.1; Notes 001 §4.1–4.3; Notes 000 Ch. 3",
                "``lm``, ``summary.lm``, ``predict.lm``",
                "``LinearRegression`` (no inference)",
            ),
            (
                "Gradient descent for least squares",
                _o("linear_model.LinearRegression") + " (``solver='gd'``)",
                "Notes 001 §4.3.2",
                "—",
                "``SGDRegressor``",
            ),
            (
                "Ridge regression, exact LOO/GCV",
                _o("linear_model.Ridge", "linear_model.RidgeCV"),
                "Notes 004 §5.3; Notes 001 §4.5; Notes 000 Ch. 5; Notes 002 §10; Notes 003",
                "``MASS::lm.ridge``, ``glmnet(alpha = 0)``",
                "``Ridge``, ``RidgeCV``",
            ),
            (
                "Lasso and elastic net, paths, CV with the one-SE rule",
                _o(
                    "linear_model.Lasso",
                    "linear_model.ElasticNet",
                    "linear_model.LassoCV",
                    "linear_model.ElasticNetCV",
                    "linear_model.lasso_path",
                    "linear_model.enet_path",
                ),
                "Notes 004 §5.3; Notes 001 §4.8–4.9; Notes 000 Ch. 5",
                "``glmnet``, ``cv.glmnet``",
                "``Lasso``, ``ElasticNet``, ``LassoCV``, ``lasso_path``",
            ),
            (
                "Huber regression",
                _o("linear_model.HuberRegressor"),
                "Notes 001 §4.7.1",
                "``MASS::rlm(psi = psi.huber)``",
                "``HuberRegressor``",
            ),
            (
                "Least absolute deviations (linear programme)",
                _o("linear_model.LADRegressor"),
                "Notes 001 §4.7.2",
                "``quantreg::rq(tau = 0.5)``",
                "``QuantileRegressor``",
            ),
            (
                "Bayesian linear regression, predictive distribution",
                _o("linear_model.BayesianLinearRegression"),
                "Notes 001 §4.6, §4.10",
                "—",
                "``BayesianRidge``",
            ),
            (
                "Perceptron; least squares as a classifier",
                _o("linear_model.Perceptron", "linear_model.LeastSquaresClassifier"),
                "Notes 002 §7; Notes 004 §3; Notes 000 Ch. 3",
                "—",
                "``Perceptron``, ``RidgeClassifier``",
            ),
        ],
    ),
    dict(
        page="glm",
        title="GLMs and logistic regression",
        packages=["linear_model"],
        intro="Generalised linear models by R's ``glm.fit`` iterations (families, links, offsets, "
        "weights, ``summary.glm``, ``anova``), and logistic regression with R's inference, "
        "multinomial fits, penalties and separation warnings.",
        rows=[
            (
                "Logistic regression (binomial GLM), Wald tests, multinomial",
                _o("linear_model.LogisticRegression"),
                "Notes 004 §3.1; Notes 001 §5.1–5.4; Notes 000 Ch. 3",
                "``glm(family = binomial)``, ``nnet::multinom``",
                "``LogisticRegression``",
            ),
            (
                "Penalised logistic regression (l1, l2, elastic net)",
                _o("linear_model.LogisticRegression"),
                "Notes 001 §5.4; Notes 000 Ch. 5",
                '``glmnet(family = "binomial")``',
                "``LogisticRegression(penalty=...)``",
            ),
            (
                "GLMs: Gaussian, binomial, Poisson, Gamma, inverse Gaussian",
                _o("linear_model.GLMRegressor"),
                "Notes 004 §2.1.5; Notes 001 §5.5",
                "``glm``, ``summary.glm``, ``predict.glm``",
                "``PoissonRegressor``, ``GammaRegressor``, ``TweedieRegressor``",
            ),
            (
                "Analysis of deviance for nested fits",
                _o("linear_model.deviance_table"),
                "Notes 004 §2.1.4",
                "``anova``",
                "—",
            ),
        ],
    ),
    dict(
        page="discriminant_analysis",
        title="Discriminant analysis",
        packages=["discriminant_analysis"],
        intro="Linear and quadratic discriminant analysis as MASS (scalings, Fisher coordinates, "
        "shrinkage) and the kernel Fisher discriminant.",
        rows=[
            (
                "Linear discriminant analysis, Fisher's directions",
                _o("discriminant_analysis.LinearDiscriminantAnalysis"),
                "Notes 004 §3.2; Notes 002 §13.1",
                "``MASS::lda``",
                "``LinearDiscriminantAnalysis``",
            ),
            (
                "Quadratic discriminant analysis",
                _o("discriminant_analysis.QuadraticDiscriminantAnalysis"),
                "Notes 004 §3.2",
                "``MASS::qda``",
                "``QuadraticDiscriminantAnalysis``",
            ),
            (
                "Kernel Fisher discriminant",
                _o("discriminant_analysis.KernelFisherDiscriminant"),
                "Notes 002 §13",
                "—",
                "—",
            ),
        ],
    ),
    dict(
        page="naive_bayes",
        title="Naive Bayes",
        packages=["naive_bayes"],
        intro="Naive Bayes for Gaussian, binary, count, categorical and mixed features, with the "
        "notes' and e1071's variance estimator as an option.",
        rows=[
            (
                "Gaussian naive Bayes",
                _o("naive_bayes.GaussianNB"),
                "Notes 001 §2.2.1; Notes 004 §3.2",
                "``e1071::naiveBayes``",
                "``GaussianNB``",
            ),
            (
                "Bernoulli naive Bayes",
                _o("naive_bayes.BernoulliNB"),
                "Notes 001 §2.3; Notes 002 §6",
                "—",
                "``BernoulliNB``",
            ),
            (
                "Multinomial naive Bayes (the tumour example)",
                _o("naive_bayes.MultinomialNB"),
                "Notes 004 §7.4",
                "—",
                "``MultinomialNB``",
            ),
            (
                "Categorical and mixed naive Bayes",
                _o("naive_bayes.CategoricalNB", "naive_bayes.MixedNB"),
                "Notes 001 §2.2; Notes 002 §6",
                "``e1071::naiveBayes``",
                "``CategoricalNB``",
            ),
        ],
    ),
    dict(
        page="neighbors",
        title="Nearest neighbours, the Bayes classifier and density estimation",
        packages=["neighbors"],
        intro="k-nearest neighbours (R's ``class::knn`` tie rule), the Bayes classifier of a known "
        "distribution with its error rate, and kernel density estimation.",
        rows=[
            (
                "k-nearest neighbours classification and regression",
                _o("neighbors.KNeighborsClassifier", "neighbors.KNeighborsRegressor"),
                "Notes 004 §1.1, §2.2; Notes 001 §3; Notes 002 §5; Notes 000 Ch. 1",
                "``class::knn``, ``FNN::knn.reg``",
                "``KNeighborsClassifier``, ``KNeighborsRegressor``",
            ),
            (
                "Bayes classifier and Bayes error rate",
                _o("neighbors.BayesClassifier", "neighbors.BayesErrorRate"),
                "Notes 004 §1.2; Notes 001 §2.1",
                "—",
                "—",
            ),
            (
                "Kernel density estimation",
                _o("neighbors.KernelDensity"),
                "Notes 000 Ch. 6",
                "``density``, ``ks::kde``",
                "``KernelDensity``",
            ),
        ],
    ),
    dict(
        page="tree",
        title="Decision trees",
        packages=["tree"],
        intro="CART as rpart grows, prints and prunes it: the cp table, cost-complexity pruning, "
        "surrogate splits for missing values, categorical splits, and the CV choice of the "
        "subtree.",
        rows=[
            (
                "Classification and regression trees",
                _o("tree.DecisionTreeClassifier", "tree.DecisionTreeRegressor"),
                "Notes 004 §7.1; Notes 001 §6.1–6.2; Notes 000 Ch. 2",
                "``rpart``",
                "``DecisionTreeClassifier``, ``DecisionTreeRegressor``",
            ),
            (
                "Cost-complexity pruning chosen by CV (one-SE rule)",
                _o("tree.DecisionTreeClassifierCV", "tree.DecisionTreeRegressorCV"),
                "Notes 004 §7.1",
                "``rpart`` ``cptable``, ``prune.rpart``, ``printcp``",
                "``cost_complexity_pruning_path``",
            ),
            (
                "Printed tree",
                _o("tree.export_text"),
                "Notes 004 §7.1",
                "``print.rpart``",
                "``export_text``",
            ),
        ],
    ),
    dict(
        page="ensemble",
        title="Ensembles",
        packages=["ensemble"],
        intro="Bagging, random forests with out-of-bag error and importances as randomForest, "
        "AdaBoost and gradient boosting.",
        rows=[
            (
                "Bagging",
                _o("ensemble.BaggingClassifier", "ensemble.BaggingRegressor"),
                "Notes 004 §7.5; Notes 000 Ch. 2",
                "``ipred::bagging``",
                "``BaggingClassifier``",
            ),
            (
                "Random forests, OOB error",
                _o("ensemble.RandomForestClassifier", "ensemble.RandomForestRegressor"),
                "Notes 004 §7.5; Notes 001 §6.3; Notes 000 Ch. 2",
                "``randomForest``",
                "``RandomForestClassifier``",
            ),
            (
                "Permutation and split-level importance",
                _o("ensemble.oob_permutation_importance", "ensemble.split_level_importance"),
                "Notes 001 §6.3.1; Notes 004 §7.5",
                "``randomForest::importance``",
                "``permutation_importance``",
            ),
            (
                "AdaBoost (SAMME)",
                _o("ensemble.AdaBoostClassifier"),
                "Notes 001 §6.4",
                '``adabag::boosting(coeflearn = "Zhu")``',
                "``AdaBoostClassifier``",
            ),
            (
                "Gradient boosting",
                _o("ensemble.GradientBoostingRegressor", "ensemble.GradientBoostingClassifier"),
                "Notes 004 §7.5; Notes 001 §6.4",
                "``gbm``",
                "``GradientBoostingRegressor``",
            ),
        ],
    ),
    dict(
        page="svm",
        title="Support vector machines and kernels",
        packages=["svm", "kernels"],
        intro="Support vector classification and regression on our own SMO (libsvm's working-set "
        "rule), any kernel of :mod:`statlearning.kernels` (string kernels included) and their "
        "algebra.",
        rows=[
            (
                "Support vector classifier (C and ν)",
                _o("svm.SVC", "svm.NuSVC"),
                "Notes 004 §7.2; Notes 002 §8; Notes 000 Ch. 6; Notes 003",
                "``e1071::svm``, ``kernlab::ksvm``",
                "``SVC``, ``NuSVC``",
            ),
            (
                "Support vector regression (ε and ν)",
                _o("svm.SVR", "svm.NuSVR"),
                "Notes 002 §9; Notes 000 Ch. 6; Notes 003",
                '``e1071::svm(type = "eps-regression")``',
                "``SVR``, ``NuSVR``",
            ),
            (
                "Kernels and their closure rules",
                _o(
                    "kernels.Linear",
                    "kernels.Polynomial",
                    "kernels.RBF",
                    "kernels.Laplacian",
                    "kernels.Sigmoid",
                    "kernels.Spectrum",
                    "kernels.AllSubsets",
                ),
                "Notes 000 Ch. 6; Notes 001 §4.11.2; Notes 002 App. B; Notes 003",
                "``kernlab::rbfdot`` etc.",
                "``sklearn.metrics.pairwise``",
            ),
            (
                "Mercer check, Gram matrices, centring",
                _o(
                    "kernels.is_mercer",
                    "kernels.pairwise_kernel",
                    "kernels.center_kernel",
                    "kernels.KernelCenterer",
                ),
                "Notes 000 Ch. 6; Notes 002 §12",
                "``kernlab::kernelMatrix``",
                "``pairwise_kernels``, ``KernelCenterer``",
            ),
        ],
    ),
    dict(
        page="kernel_methods",
        title="Kernel methods",
        packages=["kernel_methods"],
        intro="Kernel ridge regression, kernel logistic regression and the prototype feature map.",
        rows=[
            (
                "Kernel ridge regression (dual)",
                _o("kernel_methods.KernelRidge"),
                "Notes 001 §4.11; Notes 002 §10; Notes 000 Ch. 6",
                "—",
                "``KernelRidge``",
            ),
            (
                "Kernel logistic regression",
                _o("kernel_methods.KernelLogisticRegression"),
                "Notes 001 §5.4",
                "—",
                "—",
            ),
            (
                "Prototype features (L1VM)",
                _o("kernel_methods.PrototypeFeatures"),
                "Notes 000 Ch. 6",
                "—",
                "—",
            ),
        ],
    ),
    dict(
        page="decomposition",
        title="Principal components",
        packages=["decomposition"],
        intro="PCA with R's ``prcomp`` numbers and the notes' retention rules, and kernel PCA "
        "with pre-images.",
        rows=[
            (
                "Principal component analysis, retention rules",
                _o("decomposition.PCA", "decomposition.retained_components"),
                "Notes 004 §5.4; Notes 001 §8.1; Notes 002 §12",
                "``prcomp``, ``summary.prcomp``",
                "``PCA``",
            ),
            (
                "Kernel PCA",
                _o("decomposition.KernelPCA"),
                "Notes 001 §8.2; Notes 002 §12",
                "``kernlab::kpca``",
                "``KernelPCA``",
            ),
            (
                "Principal components regression",
                _o("decomposition.principal_components_regression"),
                "Notes 004 §5.4",
                "``pls::pcr``",
                "—",
            ),
        ],
    ),
    dict(
        page="cluster",
        title="Clustering",
        packages=["cluster"],
        intro="k-means as R's ``kmeans``, hierarchical clustering as ``hclust``, DBSCAN, spectral "
        "clustering and kernel k-means.",
        rows=[
            (
                "k-means, k-means++",
                _o("cluster.KMeans", "cluster.MiniBatchKMeans", "cluster.kmeans_plusplus"),
                "Notes 001 §9.1; Notes 002 §11",
                "``kmeans``",
                "``KMeans``, ``MiniBatchKMeans``",
            ),
            (
                "Agglomerative clustering",
                _o("cluster.AgglomerativeClustering"),
                "Notes 001 §9.2",
                "``hclust``, ``cutree``",
                "``AgglomerativeClustering``",
            ),
            ("DBSCAN", _o("cluster.DBSCAN"), "Notes 001 §9.3", "``dbscan::dbscan``", "``DBSCAN``"),
            (
                "Spectral clustering",
                _o("cluster.SpectralClustering"),
                "Notes 001 §9.4; Notes 002 §11",
                "``kernlab::specc``",
                "``SpectralClustering``",
            ),
            (
                "Kernel k-means",
                _o("cluster.KernelKMeans"),
                "Notes 002 §11",
                "``kernlab::kkmeans``",
                "—",
            ),
        ],
    ),
    dict(
        page="mixture",
        title="Gaussian mixtures",
        packages=["mixture"],
        intro="Gaussian mixture models fitted by EM, with information criteria and sampling.",
        rows=[
            (
                "Gaussian mixture model, EM",
                _o("mixture.GaussianMixture"),
                "Notes 001 §9.5",
                "``mclust::Mclust``",
                "``GaussianMixture``",
            ),
        ],
    ),
    dict(
        page="cross_decomposition",
        title="CCA, PLS and principal components regression",
        packages=["cross_decomposition"],
        intro="Canonical correlations as R's ``cancor``, kernel CCA, partial least squares and "
        "principal components regression as the pls package, with its cross-validation.",
        rows=[
            (
                "Canonical correlation analysis",
                _o("cross_decomposition.CCA"),
                "Notes 002 §14",
                "``cancor``",
                "``CCA``",
            ),
            (
                "Kernel CCA",
                _o("cross_decomposition.KernelCCA"),
                "Notes 002 §14",
                "``kernlab::kcca``",
                "—",
            ),
            (
                "Partial least squares",
                _o("cross_decomposition.PLSRegression", "cross_decomposition.PLSCanonical"),
                "Notes 004 §5.4",
                "``pls::plsr``",
                "``PLSRegression``, ``PLSCanonical``",
            ),
            (
                "Principal components regression",
                _o("cross_decomposition.PCRegression"),
                "Notes 004 §5.4",
                "``pls::pcr``",
                "—",
            ),
        ],
    ),
    dict(
        page="smoothing",
        title="Basis expansions, splines, local regression and MARS",
        packages=["preprocessing", "smoothing", "mars"],
        intro="The non-linear regressions of ISLR's chapter 7: polynomial, step and spline bases "
        "(R's ``poly``, ``cut``, ``bs``, ``ns``) with ±2 se bands, smoothing splines, loess and "
        "MARS as earth.",
        rows=[
            (
                "Polynomial regression",
                _o("preprocessing.PolynomialFeatures", "preprocessing.fit_basis"),
                "Notes 004 §6.1; Notes 001 §4.4",
                "``lm(y ~ poly(x, d))``",
                "``PolynomialFeatures``",
            ),
            (
                "Step functions",
                _o("preprocessing.StepFeatures"),
                "Notes 004 §6.1",
                "``cut``",
                "``KBinsDiscretizer``",
            ),
            (
                "Regression splines (truncated power, B-spline, natural)",
                _o(
                    "preprocessing.TruncatedPowerFeatures",
                    "preprocessing.BSplineFeatures",
                    "preprocessing.NaturalSplineFeatures",
                ),
                "Notes 004 §6.2",
                "``splines::bs``, ``splines::ns``",
                "``SplineTransformer``",
            ),
            (
                "Smoothing splines",
                _o("smoothing.SmoothingSpline"),
                "Notes 004 §6.2",
                "``smooth.spline``",
                "—",
            ),
            (
                "Local regression",
                _o("smoothing.LocalRegression"),
                "Notes 004 §6.2",
                "``loess``",
                "—",
            ),
            (
                "Nadaraya–Watson kernel regression",
                _o("smoothing.KernelRegression"),
                "Notes 000 Ch. 6",
                "``ksmooth``, ``np::npreg``",
                "—",
            ),
            (
                "Multivariate adaptive regression splines",
                _o("mars.MARSRegressor", "mars.MARSClassifier"),
                "Notes 004 §6.2",
                "``earth::earth``",
                "—",
            ),
        ],
    ),
    dict(
        page="gam",
        title="Generalised additive models",
        packages=["gam"],
        intro="Additive models as mgcv fits them (penalised regression splines, smoothing "
        "parameters by GCV/UBRE or REML, ``summary.gam``) and R gam's backfitting, with the "
        "notes' partial-effect panels (:func:`~statlearning.plot.plot_partial_dependence`).",
        rows=[
            (
                "Additive models for a numeric response or two classes",
                _o("gam.GAMRegressor", "gam.GAMClassifier"),
                "Notes 004 §6.3",
                "``mgcv::gam``, ``summary.gam``",
                "pygam ``LinearGAM``, ``LogisticGAM``",
            ),
            (
                "Smooth, tensor-product, linear and factor terms",
                _o("gam.s", "gam.te", "gam.l", "gam.f", "gam.Terms"),
                "Notes 004 §6.3",
                "``mgcv::s``, ``mgcv::te``",
                "pygam ``s``, ``te``, ``l``, ``f``",
            ),
            (
                "Backfitting with smoothing splines and loess",
                _o("gam.ss", "gam.lo"),
                "Notes 004 §6.3",
                "``gam::gam`` with ``s()``, ``lo()``",
                "—",
            ),
        ],
    ),
    dict(
        page="optimize",
        title="Quadratic programming",
        packages=["optimize"],
        intro="Convex quadratic programmes with their KKT conditions reported, the optimisation "
        "behind the notes' support-vector and constrained least-squares derivations.",
        rows=[
            (
                "Quadratic programme, KKT multipliers",
                _o("optimize.solve_qp", "optimize.QPResult"),
                "Notes 001 App. A.5–A.6; Notes 002 App. A",
                "``quadprog::solve.QP``",
                "``scipy.optimize.minimize``, cvxpy",
            ),
        ],
    ),
    dict(
        page="neural_network",
        title="Neural networks",
        packages=["neural_network"],
        intro="Multi-layer perceptrons trained by backpropagation with the notes' optimisers.",
        rows=[
            (
                "Multi-layer perceptron",
                _o("neural_network.MLPRegressor", "neural_network.MLPClassifier"),
                "Notes 004 §7.3",
                "``nnet::nnet``",
                "``MLPRegressor``, ``MLPClassifier``",
            ),
        ],
    ),
    dict(
        page="feature_selection",
        title="Feature selection",
        packages=["feature_selection"],
        intro="Best-subset and stepwise selection as leaps and ``step``, filters with permutation "
        "p-values, ReliefF, wrappers and the lasso path.",
        rows=[
            (
                "Best-subset selection (exhaustive, branch and bound)",
                _o("feature_selection.BestSubsetSelector"),
                "Notes 004 §5.2; Notes 003; Notes 000 Ch. 5",
                "``leaps::regsubsets``",
                "—",
            ),
            (
                "Forward, backward and hybrid stepwise selection",
                _o("feature_selection.StepwiseSelector"),
                "Notes 004 §5.2; Notes 003",
                "``step``, ``MASS::stepAIC``",
                "``SequentialFeatureSelector``",
            ),
            (
                "Filter scores",
                _o(
                    "feature_selection.f_scores",
                    "feature_selection.mutual_info_scores",
                    "feature_selection.variance_mean_scores",
                    "feature_selection.FilterSelector",
                ),
                "Notes 004 §5.3; Notes 001 §7.4; Notes 000 Ch. 5",
                "—",
                "``SelectKBest``, ``mutual_info_classif``",
            ),
            (
                "ReliefF",
                _o("feature_selection.ReliefF"),
                "Notes 000 Ch. 5",
                "``CORElearn::attrEval``",
                "—",
            ),
            (
                "Wrapper selection",
                _o("feature_selection.WrapperSelector"),
                "Notes 001 §7.4.1; Notes 000 Ch. 5",
                "—",
                "``SequentialFeatureSelector``",
            ),
            (
                "Selection along the lasso path",
                _o("feature_selection.LassoPathSelector"),
                "Notes 004 §5.3",
                "``glmnet``",
                "``SelectFromModel(Lasso())``",
            ),
        ],
    ),
    dict(
        page="model_selection",
        title="Resampling and model selection",
        packages=["model_selection"],
        intro="Cross-validation with per-fold scores and standard errors, the one-standard-error "
        "rule, nested CV, the bootstrap (percentile, normal, BCa) and the jackknife.",
        rows=[
            (
                "K-fold cross-validation estimate and its SE",
                _o("model_selection.cv_estimate"),
                "Notes 004 §4; Notes 001 §7.2",
                "``boot::cv.glm``",
                "``cross_validate``",
            ),
            (
                "One-standard-error rule",
                _o("model_selection.one_standard_error_rule"),
                "Notes 004 §5.2",
                "``cv.glmnet``'s ``lambda.1se``",
                "``GridSearchCV(refit=callable)``",
            ),
            (
                "Nested cross-validation",
                _o("model_selection.nested_cv"),
                "Notes 001 §7.2–7.3; Notes 000 Ch. 1",
                "—",
                "``cross_val_score(GridSearchCV(...))``",
            ),
            (
                "Bootstrap and its intervals",
                _o("model_selection.bootstrap"),
                "Notes 004 §4; Notes 001 App. B.12",
                "``boot::boot``, ``boot::boot.ci``",
                "—",
            ),
            (
                "Bootstrap prediction error (.632, .632+, OOB)",
                _o("model_selection.bootstrap_error"),
                "Notes 004 §4",
                "``ipred::errorest``",
                "—",
            ),
            (
                "Jackknife",
                _o("model_selection.jackknife"),
                "Notes 004 §4",
                "``bootstrap::jackknife``",
                "—",
            ),
        ],
    ),
    dict(
        page="inference",
        title="Inference tables",
        packages=["inference"],
        intro="The printed tables every estimator with classical inference returns: R's layout, "
        "HTML in notebooks, data frames.",
        rows=[
            (
                "Model summary",
                _o("inference.Summary"),
                "Notes 004 §2.1.4",
                "``print.summary.lm``, ``print.summary.glm``",
                "statsmodels ``summary()``",
            ),
            (
                "Coefficient table",
                _o("inference.CoefTable"),
                "Notes 004 §2.1.4",
                "``printCoefmat``",
                "—",
            ),
            (
                "Analysis of variance/deviance table",
                _o("inference.AnovaTable"),
                "Notes 004 §2.1.4",
                "``print.anova``",
                "statsmodels ``anova_lm``",
            ),
        ],
    ),
    dict(
        page="metrics",
        title="Metrics",
        packages=["metrics"],
        intro="The notes' regression and classification metrics, ROC thresholds and AUC standard "
        "errors, multiple-testing adjustment and information measures.",
        rows=[
            (
                "Normalised errors, MAPE, RMSLE",
                _o("metrics.nmse", "metrics.nmae", "metrics.mape", "metrics.rmsle"),
                "Notes 004 §1.2; Notes 001 §7.1.1",
                "—",
                "``mean_squared_error`` etc.",
            ),
            (
                "Explained variance (the notes' (7.6))",
                _o("metrics.explained_variance_r2"),
                "Notes 001 §7.1.1",
                "—",
                "``explained_variance_score``",
            ),
            (
                "Misclassification rate, confusion matrix, rates",
                _o(
                    "metrics.misclassification_rate",
                    "metrics.confusion_matrix",
                    "metrics.rates_table",
                ),
                "Notes 004 §3.3; Notes 001 §7.1.2",
                "``table(pred, true)``",
                "``confusion_matrix``",
            ),
            (
                "ROC optimal threshold, AUC standard error",
                _o("metrics.roc_optimal_threshold", "metrics.auc_se"),
                "Notes 004 §3.3; Notes 001 §7.1.2",
                "``pROC::coords``, ``pROC::var``",
                "``roc_curve``, ``roc_auc_score``",
            ),
            (
                "Adjusted p-values",
                _o("metrics.p_adjust"),
                "Notes 004 §2.1.4 (Bonferroni)",
                "``p.adjust``",
                "statsmodels ``multipletests``",
            ),
            (
                "Entropy, KL divergence, cross entropy",
                _o("metrics.entropy", "metrics.kl_divergence", "metrics.cross_entropy"),
                "Notes 001 §5.1, §6.1, App. B",
                "—",
                "``log_loss``",
            ),
        ],
    ),
    dict(
        page="bayes",
        title="Conjugate Bayesian models",
        packages=["bayes"],
        intro="Closed-form posteriors of one sample and Bayesian model averaging.",
        rows=[
            (
                "Beta–Bernoulli, Dirichlet–categorical, normal–normal",
                _o("bayes.BetaBernoulli", "bayes.DirichletCategorical", "bayes.NormalNormal"),
                "Notes 001 §4.10.1, App. B",
                "—",
                "—",
            ),
            (
                "Bayesian model averaging",
                _o("bayes.model_average", "bayes.ModelAverage"),
                "Notes 001 §1.2.5",
                "``BMA::bicreg``",
                "—",
            ),
        ],
    ),
    dict(
        page="theory",
        title="Learning-theory bounds",
        packages=["theory"],
        intro="Hoeffding, union, growth-function and VC bounds, and the sample sizes they imply.",
        rows=[
            (
                "Hoeffding and union bounds",
                _o("theory.hoeffding_bound", "theory.union_bound"),
                "Notes 001 §1.2.3",
                "—",
                "—",
            ),
            (
                "Growth function (Sauer) and VC bound",
                _o("theory.growth_function_bound", "theory.vc_bound"),
                "Notes 001 §1.2.3",
                "—",
                "—",
            ),
            ("Sample size for a bound", _o("theory.sample_size"), "Notes 001 §1.2.3", "—", "—"),
        ],
    ),
    dict(
        page="io",
        title="Saving models",
        packages=["io"],
        intro="Model files on skops: loading executes no code, and only trusted types load.",
        rows=[
            (
                "Save and load a fitted model",
                _o("io.save", "io.load", "io.model_metadata"),
                "—",
                "``saveRDS``, ``readRDS``",
                "``skops.io.dump``, ``skops.io.load``",
            ),
        ],
    ),
    dict(
        page="formula",
        title="R-style formulas",
        packages=["formula"],
        intro="Models fitted from a formula on a data frame, with R's term names in the summary "
        "(needs the ``formula`` extra).",
        rows=[
            (
                "Linear model from a formula",
                _o("formula.lm"),
                "Notes 004 §2.1",
                "``lm(y ~ ...)``",
                "statsmodels ``ols``",
            ),
            (
                "GLM from a formula (``cbind`` responses)",
                _o("formula.glm"),
                "Notes 004 §2.1.5, §3.1",
                "``glm(cbind(s, f) ~ ...)``",
                "statsmodels ``glm``",
            ),
            (
                "Formula design in pipelines",
                _o("formula.FormulaTransformer", "formula.register_transform"),
                "—",
                "``model.matrix``",
                "formulaic ``model_matrix``",
            ),
        ],
    ),
    dict(
        page="datasets",
        title="Data sets and readers",
        packages=["datasets"],
        intro="The notes' data sets bundled (no network), scikit-learn's classics, simulators with "
        "a known Bayes classifier, and a CSV reader with R's treatment coding.",
        rows=[
            (
                "Gapminder (the notes' regression example)",
                _o("datasets.load_gapminder"),
                "Notes 004 §2, §3, §7.1",
                "``dslabs::gapminder``",
                "—",
            ),
            (
                "Wisconsin biopsy (the notes' logistic/ROC example)",
                _o("datasets.load_biopsy"),
                "Notes 004 §3.3",
                "``MASS::biopsy``",
                "``load_breast_cancer`` (another version)",
            ),
            (
                "Simulated classes with a known Bayes classifier",
                _o("datasets.make_mixture", "datasets.make_islr_classification"),
                "Notes 004 §1.2, §2.2",
                "ESL's ``mixture.example``",
                "``make_classification``",
            ),
            (
                "CSV with treatment coding",
                _o("datasets.load_csv"),
                "—",
                "``read.csv`` + ``model.matrix``",
                "``pandas.read_csv``",
            ),
        ],
    ),
    dict(
        page="cli",
        title="The command line",
        packages=["cli"],
        intro="``statlearning compare`` (a cross-validated leaderboard), ``fit`` (an R-style "
        "summary, ``--save``), ``predict`` and ``models``; ``statlearning --help`` lists them.",
        rows=[
            (
                "Leaderboard, fit, predict",
                _o("cli.main"),
                "Notes 004 §4, §5",
                "``caret::train``",
                "—",
            ),
        ],
    ),
]


def _table(rows, columns) -> list[str]:
    lines = [".. list-table::", "   :header-rows: 1", "   :widths: auto", ""]
    lines.append("   * - " + "\n     - ".join(columns))
    for row in rows:
        lines.append("   * - " + "\n     - ".join(cell or "—" for cell in row))
    lines.append("")
    return lines


def covered_packages() -> set[str]:
    return {package for family in FAMILIES for package in family["packages"]}


def families() -> list[dict]:
    """The families of :data:`FAMILIES` plus one for every public package none of them covers."""
    present = set(public_modules())
    result = [family for family in FAMILIES if set(family["packages"]) <= present]
    covered = covered_packages()
    for name in sorted(present):
        if name in covered or name in NOT_FAMILIES:
            continue
        result.append(
            dict(page=name, title=f":mod:`statlearning.{name}`", packages=[name], intro="", rows=[])
        )
    return result


def family_page(family: dict) -> str:
    lines = [f".. _guide-{family['page']}:", "", heading(family["title"])]
    if family["intro"]:
        lines += [family["intro"], ""]
    if family["rows"]:
        lines += _table(
            family["rows"],
            ["Method", "statlearning", "Lecture notes", "R", "scikit-learn / Python"],
        )
    else:  # a package without a written page: its public objects
        lines += [
            "Public objects:",
            "",
            f".. currentmodule:: statlearning.{family['packages'][0]}",
            "",
        ]
        lines += [".. autosummary::", "   :nosignatures:", ""]
        lines += [f"   {name}" for name in module_all(family["packages"][0])]
        lines.append("")
    refs = ", ".join(f":ref:`api-{package}`" for package in family["packages"])
    lines += [f"API reference: {refs}. All R equivalents: :ref:`r-equivalents`.", ""]
    return "\n".join(lines)


def r_page() -> str:
    rows = []
    for family in families():
        for method, objects, _notes, r, _sk in family["rows"]:
            if r and r != "—":
                rows.append((r, objects, method, f":ref:`guide-{family['page']}`"))
    lines = [
        ".. _r-equivalents:",
        "",
        heading("R function → statlearning"),
        "Every R function the user guide maps, with the statlearning object that reproduces it.",
        "The docstrings' Notes say which arguments correspond and where the numbers agree with R.",
        "",
    ]
    lines += _table(rows, ["R", "statlearning", "Method", "Guide"])
    return "\n".join(lines)


def index_page(pages: list[dict]) -> str:
    lines = [
        ".. _guide:",
        "",
        heading("User guide"),
        "One page per family: each method, the lecture notes' sections that define it (cited as",
        "*Notes 004 §6.2*: seed 000 is Zupan & Štrumbelj's *Machine Learning for Data Science 1*,",
        "001 Artelt's *Introduction to Machine Learning: Supplementary notes*, 002 Welling's",
        "*A First Encounter with Machine Learning*, 003 Vandin's slides on kernels and feature",
        "selection, 004 Boily's *Statistical Methods for Supervised Learning*, which follows",
        "ISLR), and its R and scikit-learn equivalents.",
        "",
        ".. toctree::",
        "   :maxdepth: 1",
        "",
        "   r_equivalents",
    ]
    lines += [f"   {family['page']}" for family in pages]
    lines.append("")
    return "\n".join(lines)


def guide_sources() -> dict[str, str]:
    pages = families()
    sources = {f"{family['page']}.rst": family_page(family) for family in pages}
    sources["r_equivalents.rst"] = r_page()
    sources["index.rst"] = index_page(pages)
    return sources


def write_guide_stubs(directory: Path | None = None) -> list[Path]:
    """Write the guide into ``directory`` (``docs/guide``)."""
    return write_sources(HERE / "guide" if directory is None else Path(directory), guide_sources())


if __name__ == "__main__":
    for path in write_guide_stubs():
        print(path)
