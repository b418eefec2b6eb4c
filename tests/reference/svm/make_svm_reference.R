# Reference fits from e1071::svm (libsvm) for the SVC, NuSVC, SVR and NuSVR tests.
#
# Run from this directory:
#
#     cd tests/reference/svm && Rscript make_svm_reference.R
#
# Requires R with the e1071 package (Debian: r-cran-e1071).
#
# Produces, in the current directory:
#   binary.csv, three.csv, regression.csv   the data (x1, x2, y), simulated below, every double
#                         written with 17 significant digits and read back to check that it gives
#                         the identical doubles; the fits use the read-back data.
#   svm_reference.json    for each case: the fitted model's class order (libsvm's, the order of
#                         first appearance; the data put the classes' first rows in sorted order),
#                         the 1-based support-vector indices in libsvm's order (grouped by class),
#                         the coefficients (one row per support vector, libsvm's sv_coef
#                         layout), rho (decision = sum(coef * K) - rho), nSV per class, and the
#                         decision values (classification) or predictions (regression) on the
#                         training data. Every fit uses scale = FALSE, tolerance = 1e-8,
#                         shrinking = TRUE. The R and e1071 versions are recorded at the top level.

options(warn = 1)
suppressPackageStartupMessages(library(e1071))
source("../json_writer.R")

write_and_read <- function(df, file) {
  out <- df
  for (j in seq_along(out)) if (is.double(out[[j]])) out[[j]] <- sprintf("%.17g", out[[j]])
  write.csv(out, file, row.names = FALSE, quote = FALSE)
  back <- read.csv(file, stringsAsFactors = FALSE)
  for (j in seq_along(df)) {
    if (is.double(df[[j]]) && !identical(back[[j]], df[[j]])) stop("round trip failed: ", file)
  }
  back
}

set.seed(20261126)
# binary: two overlapping Gaussian clouds (some multipliers at their bound C)
nb <- 40
yb <- c("a", "b", sample(rep(c("a", "b"), each = 19)))
centre <- ifelse(yb == "a", 1, -1)
binary <- data.frame(x1 = centre + rnorm(nb, sd = 1.2), x2 = 0.5 * centre + rnorm(nb, sd = 1.2),
                     y = yb)
binary <- write_and_read(binary, "binary.csv")

# three classes, first rows in sorted class order
nt <- 60
yt <- c("a", "b", "c", sample(rep(c("a", "b", "c"), each = 19)))
cx <- c(a = 0, b = 2, c = -2)[yt]
cy <- c(a = 2, b = -1, c = -1)[yt]
three <- data.frame(x1 = unname(cx) + rnorm(nt), x2 = unname(cy) + rnorm(nt), y = yt)
three <- write_and_read(three, "three.csv")

# regression
nr <- 50
x1 <- runif(nr, -3, 3)
x2 <- runif(nr, -2, 2)
regression <- data.frame(x1 = x1, x2 = x2, y = sin(x1) + 0.5 * x2 + rnorm(nr, sd = 0.2))
regression <- write_and_read(regression, "regression.csv")

fit_case <- function(name, data, args) {
  X <- as.matrix(data[, c("x1", "x2")])
  classification <- args$type %in% c("C-classification", "nu-classification")
  y <- if (classification) factor(data$y) else data$y
  m <- do.call(svm, c(list(x = X, y = y, scale = FALSE, tolerance = 1e-8, shrinking = TRUE),
                      args))
  pred <- predict(m, X, decision.values = TRUE)
  case <- list(
    name = name,
    data = paste0(deparse(substitute(data)), ".csv"),
    args = lapply(args, function(v) if (is.numeric(v) && length(v) > 1) I(v) else v),
    index = I(as.integer(m$index)),
    coefs = rows_of(as.matrix(m$coefs)),
    rho = I(as.numeric(m$rho)),
    n_sv = I(as.integer(m$nSV))
  )
  if (classification) {
    case$labels <- I(m$levels[m$labels])
    dv <- attr(pred, "decision.values")
    case$decision_columns <- I(colnames(dv))
    case$decision_values <- rows_of(dv)
  } else {
    case$predictions <- I(as.numeric(pred))
  }
  case
}

cases <- list(
  fit_case("csvc_linear_binary", binary, list(type = "C-classification", kernel = "linear",
                                              cost = 1)),
  fit_case("csvc_poly_binary", binary, list(type = "C-classification", kernel = "polynomial",
                                            degree = 3, gamma = 0.5, coef0 = 1, cost = 0.5)),
  fit_case("csvc_rbf_binary", binary, list(type = "C-classification", kernel = "radial",
                                           gamma = 0.5, cost = 2)),
  fit_case("csvc_rbf_binary_weighted", binary,
           list(type = "C-classification", kernel = "radial", gamma = 0.5, cost = 1,
                class.weights = c(a = 3, b = 0.5))),
  fit_case("csvc_linear_three", three, list(type = "C-classification", kernel = "linear",
                                            cost = 0.5)),
  fit_case("csvc_rbf_three", three, list(type = "C-classification", kernel = "radial",
                                         gamma = 0.5, cost = 1)),
  fit_case("nusvc_rbf_binary", binary, list(type = "nu-classification", kernel = "radial",
                                            gamma = 0.5, nu = 0.4)),
  fit_case("nusvc_rbf_three", three, list(type = "nu-classification", kernel = "radial",
                                          gamma = 0.5, nu = 0.3)),
  fit_case("epssvr_rbf", regression, list(type = "eps-regression", kernel = "radial",
                                          gamma = 0.5, cost = 2, epsilon = 0.1)),
  fit_case("epssvr_linear", regression, list(type = "eps-regression", kernel = "linear",
                                             cost = 1, epsilon = 0.2)),
  fit_case("epssvr_poly", regression, list(type = "eps-regression", kernel = "polynomial",
                                           degree = 2, gamma = 0.5, coef0 = 1, cost = 1,
                                           epsilon = 0.1)),
  fit_case("nusvr_rbf", regression, list(type = "nu-regression", kernel = "radial",
                                         gamma = 0.5, cost = 2, nu = 0.4)),
  fit_case("nusvr_linear", regression, list(type = "nu-regression", kernel = "linear",
                                            cost = 1, nu = 0.6))
)

out <- list(
  r_version = R.version.string,
  e1071_version = as.character(packageVersion("e1071")),
  cases = cases
)
writeLines(to_json(out), "svm_reference.json")
