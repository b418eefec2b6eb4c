# Reference numbers from R's glmnet for the Lasso / ElasticNet / path tests.
#
# Run from this directory:
#
#     cd tests/reference/glmnet && Rscript make_glmnet_reference.R
#
# Requires R and the glmnet package (Debian: r-cran-glmnet). The JSON is
# written by hand below; no other package is used.
#
# Produces, in the current directory:
#   mtcars.csv, mtcars_unit.csv, sim.csv, sim_unit.csv
#                      the data of the cases: the predictors, then the
#                      response, then (simulated data) a `weight` column.
#                      Every double is written with 17 significant digits
#                      and read back to check that it gives the identical
#                      doubles; the fits use the read-back data, so R and the
#                      Python tests see exactly the same numbers.
#   glmnet_reference.json
#                      per case: glmnet's lambda sequence, intercepts a0 and
#                      coefficient matrix beta (one row per predictor, one
#                      column per lambda), the population standard deviation
#                      of y that glmnet uses internally (weighted), glmnet's
#                      own optimality residual (max KKT violation), and the
#                      settings. Every double is printed with %.17g. The R and
#                      glmnet versions are recorded at the top level.
#
# Settings common to every fit: standardize = FALSE, thresh = 1e-30 (the
# convergence threshold of glmnet's coordinate descent, relative to the null
# deviance), maxit = 1e7, and glmnet.control(fdev = 0, devmax = 1) so that the
# path is never truncated early: every case has nlambda = 20 values of lambda.

options(warn = 1)
suppressPackageStartupMessages(library(glmnet))
glmnet.control(fdev = 0, devmax = 1)

# ---------------------------------------------------------------------------
# Minimal JSON writer (numbers with 17 significant digits).

json_string <- function(s) {
  s <- enc2utf8(s)
  s <- gsub("\\", "\\\\", s, fixed = TRUE)
  s <- gsub("\"", "\\\"", s, fixed = TRUE)
  s <- gsub("\n", "\\n", s, fixed = TRUE)
  paste0("\"", s, "\"")
}

json_scalar <- function(x) {
  if (is.character(x)) return(ifelse(is.na(x), "null", json_string(x)))
  if (is.logical(x)) return(ifelse(is.na(x), "null", ifelse(x, "true", "false")))
  if (is.integer(x)) return(ifelse(is.na(x), "null", sprintf("%d", x)))
  if (is.numeric(x)) return(ifelse(is.finite(x), sprintf("%.17g", x), "null"))
  stop("cannot serialise value of class ", class(x)[1])
}

# Atomic vectors of length 1 are scalars unless wrapped in I(); all other
# atomic vectors are arrays. Named lists are objects, unnamed lists arrays.
to_json <- function(x, indent = 0L) {
  pad <- strrep("  ", indent + 1L)
  if (is.null(x)) return("null")
  if (is.list(x)) {
    if (length(x) == 0L) return(if (is.null(names(x))) "[]" else "{}")
    parts <- vapply(x, to_json, character(1), indent = indent + 1L)
    if (!is.null(names(x))) {
      items <- paste0(pad, json_string(names(x)), ": ", parts)
      return(paste0("{\n", paste(items, collapse = ",\n"), "\n",
                    strrep("  ", indent), "}"))
    }
    return(paste0("[\n", paste0(pad, parts, collapse = ",\n"), "\n",
                  strrep("  ", indent), "]"))
  }
  if (length(x) == 1L && !inherits(x, "AsIs")) return(json_scalar(unclass(x)))
  paste0("[", paste(json_scalar(unclass(x)), collapse = ", "), "]")
}

rows_of <- function(m) lapply(seq_len(nrow(m)), function(i) I(unname(m[i, ])))

# ---------------------------------------------------------------------------
# CSV writing with full precision, checked by reading back.

write_case_csv <- function(d, file) {
  out <- d
  for (nm in names(out)) {
    stopifnot(is.numeric(out[[nm]]), !anyNA(out[[nm]]))
    out[[nm]] <- sprintf("%.17g", as.double(out[[nm]]))
  }
  write.csv(out, file, row.names = FALSE, quote = FALSE)
  back <- read.csv(file, check.names = FALSE)
  stopifnot(identical(names(back), names(d)), nrow(back) == nrow(d))
  for (nm in names(d)) {
    if (!identical(as.double(back[[nm]]), as.double(d[[nm]])))
      stop("column ", nm, " of ", file, " does not read back identically")
  }
  back
}

# Weighted population standard deviation (what glmnet divides y by).
pop_sd <- function(y, w, intercept) {
  w <- w / sum(w)
  m <- if (intercept) sum(w * y) else 0
  sqrt(sum(w * (y - m)^2))
}

# ---------------------------------------------------------------------------
# Data.

mt <- mtcars
rownames(mt) <- NULL
mt_pred <- setdiff(names(mt), "mpg")            # cyl disp hp drat wt qsec vs am gear carb
mtcars_data <- mt[, c(mt_pred, "mpg")]

# mpg rescaled to unit population standard deviation, so that glmnet's
# lambda is ElasticNet's alpha exactly (see the ElasticNet docstring).
mt_unit <- mtcars_data
mt_unit$mpg <- mt_unit$mpg / pop_sd(mt_unit$mpg, rep(1, nrow(mt_unit)), TRUE)
names(mt_unit)[names(mt_unit) == "mpg"] <- "mpg_unit"

# Simulated: n = 100, p = 20, correlated Gaussian predictors with unequal
# scales and non-zero means, sparse truth (5 non-zero slopes), weights in
# [0.5, 2] (two rows with weight 0).
set.seed(20240611)
n <- 100; p <- 20
rho <- 0.5
Sigma <- rho^abs(outer(seq_len(p), seq_len(p), "-"))
Z <- matrix(rnorm(n * p), n, p) %*% chol(Sigma)
scales <- exp(runif(p, -1, 1))
means <- rnorm(p, 0, 2)
X <- sweep(sweep(Z, 2, scales, "*"), 2, means, "+")
colnames(X) <- sprintf("x%02d", seq_len(p))
beta_true <- c(2, -1.5, 1, 0.5, -0.75, rep(0, p - 5)) / scales
y <- 3 + drop(X %*% beta_true) + rnorm(n)
w <- round(runif(n, 0.5, 2), 3)
w[c(7, 42)] <- 0
sim_data <- data.frame(X, y = y, weight = w)
sim_unit <- sim_data
sim_unit$y <- sim_unit$y / pop_sd(sim_unit$y, sim_unit$weight, TRUE)
names(sim_unit)[names(sim_unit) == "y"] <- "y_unit"

files <- list(
  mtcars = write_case_csv(mtcars_data, "mtcars.csv"),
  mtcars_unit = write_case_csv(mt_unit, "mtcars_unit.csv"),
  sim = write_case_csv(sim_data, "sim.csv"),
  sim_unit = write_case_csv(sim_unit, "sim_unit.csv")
)

# ---------------------------------------------------------------------------
# Cases.

cases <- list(
  mtcars_lasso = list(file = "mtcars", response = "mpg", predictors = mt_pred,
                      weights = NULL, alpha = 1, intercept = TRUE),
  mtcars_enet_unit_y = list(file = "mtcars_unit", response = "mpg_unit",
                            predictors = mt_pred, weights = NULL, alpha = 0.5,
                            intercept = TRUE),
  mtcars_enet_raw_y = list(file = "mtcars", response = "mpg", predictors = mt_pred,
                           weights = NULL, alpha = 0.5, intercept = TRUE),
  sim_lasso_weighted = list(file = "sim", response = "y",
                            predictors = colnames(X), weights = "weight",
                            alpha = 1, intercept = TRUE),
  sim_enet_weighted_unit_y = list(file = "sim_unit", response = "y_unit",
                                  predictors = colnames(X), weights = "weight",
                                  alpha = 0.5, intercept = TRUE),
  sim_lasso_no_intercept = list(file = "sim", response = "y",
                                predictors = colnames(X), weights = NULL,
                                alpha = 1, intercept = FALSE)
)

# Largest violation of the optimality conditions of glmnet's objective at
# each lambda, on the scale of the gradient (diagnostic of glmnet's accuracy).
kkt_violation <- function(x, y, w, fit, alpha, intercept) {
  w <- w / sum(w)
  sapply(seq_along(fit$lambda), function(k) {
    b <- as.numeric(fit$beta[, k])
    r <- y - fit$a0[k] - drop(x %*% b)
    g <- -drop(crossprod(x, w * r))            # gradient of (1/2) sum w r^2
    lam <- fit$lambda[k]
    sy <- pop_sd(y, w, intercept)
    l1 <- lam * alpha
    l2 <- lam * (1 - alpha) / sy                # glmnet's ridge part on raw y
    v <- ifelse(b != 0, abs(g + l1 * sign(b) + l2 * b), pmax(abs(g) - l1, 0))
    max(v)
  })
}

reference_for <- function(name, spec) {
  d <- files[[spec$file]]
  x <- as.matrix(d[, spec$predictors])
  y <- d[[spec$response]]
  w <- if (is.null(spec$weights)) rep(1, nrow(d)) else d[[spec$weights]]
  fit <- glmnet(x, y, family = "gaussian", weights = w, alpha = spec$alpha,
                nlambda = 20, standardize = FALSE, intercept = spec$intercept,
                thresh = 1e-30, maxit = 1e7)
  stopifnot(fit$jerr == 0, length(fit$lambda) == 20L)
  beta <- as.matrix(fit$beta)
  list(
    data_file = paste0(spec$file, ".csv"),
    response = spec$response,
    predictors = I(spec$predictors),
    weights_column = if (is.null(spec$weights)) NULL else spec$weights,
    glmnet_alpha = spec$alpha,
    intercept = spec$intercept,
    standardize = FALSE,
    thresh = 1e-30,
    n_obs = nrow(d),
    sd_y = pop_sd(y, w, spec$intercept),
    lambda = fit$lambda,
    a0 = unname(fit$a0),
    beta = rows_of(beta),
    df = as.integer(fit$df),
    npasses = as.integer(fit$npasses),
    kkt_violation = kkt_violation(x, y, w, fit, spec$alpha, spec$intercept),
    call = paste(deparse(fit$call), collapse = " ")
  )
}

out <- list(
  r_version = R.version.string,
  glmnet_version = as.character(packageVersion("glmnet")),
  generated_by = "make_glmnet_reference.R",
  cases = I(names(cases))
)
for (nm in names(cases)) out[[nm]] <- reference_for(nm, cases[[nm]])

writeLines(to_json(out), "glmnet_reference.json")
cat("wrote glmnet_reference.json with", length(cases), "cases\n")
