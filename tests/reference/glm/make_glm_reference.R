# Reference numbers from R's glm() for the GLMRegressor tests.
#
# Run from this directory:
#
#     cd tests/reference/glm && Rscript make_glm_reference.R
#
# Requires R (packages stats and datasets), MASS (Debian: r-cran-mass), for
# the Insurance data, and statmod (r-cran-statmod), for rinvgauss. The JSON is
# written in base R by ../json_writer.R.
#
# Produces, in the current directory:
#   <dataset>.csv       one file per data set: numeric columns only (factors are
#                       expanded into 0/1 treatment dummies or integer codes
#                       here, so that R and Python fit the same design). Every
#                       double is written with 17 significant digits and read
#                       back to check that the doubles are identical; the fits
#                       use the read-back data.
#   glm_reference.json  for each case: coefficients, standard errors, z or t
#                       statistics and p-values, vcov, deviance, null deviance,
#                       degrees of freedom, dispersion, AIC, BIC, log-likelihood,
#                       iterations, deviance-residual quantiles, predictions on
#                       the first five rows and the printed summary; for each
#                       anova case the table of anova(m1, m2, ..., test=) and
#                       its printed form. Doubles are printed with
#                       sprintf("%.17g"); NA/NaN/Inf are written as null. The
#                       R and MASS versions are recorded at the top level.

options(useFancyQuotes = FALSE, width = 80, warn = 1)

suppressPackageStartupMessages(library(MASS))

# Minimal JSON writer (shared; see ../json_writer.R).
source("../json_writer.R")

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

# ---------------------------------------------------------------------------
# Data sets (numeric columns only).

mt <- mtcars
rownames(mt) <- NULL

inf <- infert[, c("age", "parity", "induced", "spontaneous", "case")]
rownames(inf) <- NULL

es <- data.frame(
  age = as.numeric(as.integer(esoph$agegp)),
  alcohol = as.numeric(as.integer(esoph$alcgp)),
  tobacco = as.numeric(as.integer(esoph$tobgp)),
  prop = esoph$ncases / (esoph$ncases + esoph$ncontrols),
  trials = esoph$ncases + esoph$ncontrols)

ins <- data.frame(
  district2 = as.numeric(Insurance$District == "2"),
  district3 = as.numeric(Insurance$District == "3"),
  district4 = as.numeric(Insurance$District == "4"),
  group = as.numeric(as.integer(Insurance$Group)),
  age = as.numeric(as.integer(Insurance$Age)),
  claims = as.numeric(Insurance$Claims),
  log_holders = log(Insurance$Holders))

wb <- data.frame(
  woolA = as.numeric(warpbreaks$wool == "A"),
  woolB = as.numeric(warpbreaks$wool == "B"),
  tensionM = as.numeric(warpbreaks$tension == "M"),
  tensionH = as.numeric(warpbreaks$tension == "H"),
  tensionL = as.numeric(warpbreaks$tension == "L"),
  breaks = warpbreaks$breaks)

# McCullagh & Nelder's clotting times (R's ?glm example), both lots stacked.
u <- c(5, 10, 15, 20, 30, 40, 60, 80, 100)
clot <- data.frame(
  log_u = rep(log(u), 2),
  lot2 = rep(c(0, 1), each = 9),
  log_u_lot2 = rep(log(u), 2) * rep(c(0, 1), each = 9),
  time = c(118, 58, 42, 35, 27, 25, 21, 19, 18, 69, 35, 26, 21, 18, 16, 13, 12, 12))

# Inverse Gaussian responses with mean (1 + 2 x1 + x2)^(-1/2) (canonical link)
# and shape 8, drawn by Michael, Schucany & Haas (1976).
set.seed(20240601)
n_ig <- 60
x1 <- runif(n_ig)
x2 <- runif(n_ig)
mu_ig <- (1 + 2 * x1 + x2)^(-1/2)
shape <- 8
nu <- rnorm(n_ig)^2
xx <- mu_ig + mu_ig^2 * nu / (2 * shape) -
  mu_ig / (2 * shape) * sqrt(4 * mu_ig * shape * nu + mu_ig^2 * nu^2)
ig <- data.frame(x1 = x1, x2 = x2,
                 y = ifelse(runif(n_ig) <= mu_ig / (mu_ig + xx), xx, mu_ig^2 / xx))

# Inverse Gaussian responses with mean exp(0.5 + 1.5 x1 - x2) (log link) and shape 0.5,
# drawn by statmod::rinvgauss: a strongly skewed sample on which glm's IRLS needs 17
# iterations, the deviance rising at the fourth (556.4 -> 594.6; R does not halve that step).
set.seed(13)
n_igl <- 200
x1 <- runif(n_igl)
x2 <- runif(n_igl)
igl <- data.frame(x1 = x1, x2 = x2,
                  y = statmod::rinvgauss(n_igl, mean = exp(0.5 + 1.5 * x1 - x2), shape = 0.5))

datasets <- list(
  mtcars = mt[, c("wt", "hp", "qsec", "cyl", "mpg")],
  infert = inf,
  esoph = es,
  insurance = ins,
  warpbreaks = wb,
  clotting = clot,
  invgauss = ig,
  invgauss_log = igl)

data <- list()
for (nm in names(datasets)) data[[nm]] <- write_case_csv(datasets[[nm]], paste0(nm, ".csv"))

# ---------------------------------------------------------------------------
# Cases: data set, response, predictors (in order), family, link, intercept,
# weights and offset columns.

case <- function(data, response, predictors, family, link, intercept = TRUE,
                 weights = NULL, offset = NULL) {
  list(data = data, response = response, predictors = predictors,
       family = family, link = link, intercept = intercept,
       weights = weights, offset = offset)
}

cases <- list(
  binomial_logit = case("infert", "case", c("age", "parity", "induced", "spontaneous"),
                        "binomial", "logit"),
  binomial_probit = case("infert", "case", c("age", "parity", "induced", "spontaneous"),
                         "binomial", "probit"),
  binomial_cloglog = case("infert", "case", c("age", "parity", "induced", "spontaneous"),
                          "binomial", "cloglog"),
  binomial_proportions = case("esoph", "prop", c("age", "alcohol", "tobacco"),
                              "binomial", "logit", weights = "trials"),
  poisson_offset = case("insurance", "claims",
                        c("district2", "district3", "district4", "group", "age"),
                        "poisson", "log", offset = "log_holders"),
  poisson_log = case("warpbreaks", "breaks", c("woolB", "tensionM", "tensionH"),
                     "poisson", "log"),
  poisson_sqrt = case("warpbreaks", "breaks", c("woolB", "tensionM", "tensionH"),
                      "poisson", "sqrt"),
  poisson_aliased = case("warpbreaks", "breaks",
                         c("woolB", "tensionM", "tensionH", "tensionL"), "poisson", "log"),
  poisson_no_intercept = case("warpbreaks", "breaks",
                              c("woolA", "woolB", "tensionM", "tensionH"), "poisson", "log",
                              intercept = FALSE),
  gamma_inverse = case("clotting", "time", c("log_u", "lot2", "log_u_lot2"),
                       "Gamma", "inverse"),
  gamma_log = case("mtcars", "mpg", c("wt", "hp", "qsec"), "Gamma", "log"),
  inverse_gaussian_canonical = case("invgauss", "y", c("x1", "x2"),
                                    "inverse.gaussian", "1/mu^2"),
  inverse_gaussian_log = case("mtcars", "mpg", c("wt", "hp"), "inverse.gaussian", "log"),
  inverse_gaussian_log_slow = case("invgauss_log", "y", c("x1", "x2"),
                                   "inverse.gaussian", "log"),
  gaussian_log = case("mtcars", "mpg", c("wt", "hp"), "gaussian", "log",
                      weights = "cyl")
)

# Nested sequences for anova(..., test = ): same data/family as the named case,
# each entry a predictor set.
anovas <- list(
  binomial = list(case = "binomial_logit", test = "Chisq",
                  models = list(c("age", "parity"),
                                c("age", "parity", "induced", "spontaneous"))),
  poisson = list(case = "poisson_offset", test = "Chisq",
                 models = list(c("age"), c("group", "age"),
                               c("district2", "district3", "district4", "group", "age"))),
  gamma = list(case = "gamma_log", test = "F",
               models = list(c("wt"), c("wt", "hp", "qsec"))),
  gamma_chisq = list(case = "gamma_log", test = "Chisq",
                     models = list(c("wt"), c("wt", "hp", "qsec"))),
  inverse_gaussian = list(case = "inverse_gaussian_log", test = "F",
                          models = list(c("wt"), c("wt", "hp"))),
  gaussian = list(case = "gaussian_log", test = "F",
                  models = list(c("wt"), c("wt", "hp"))),
  gaussian_chisq = list(case = "gaussian_log", test = "Chisq",
                        models = list(c("wt"), c("wt", "hp"))),
  lm = list(case = NULL, data = "mtcars", response = "mpg", test = "F",
            models = list(c("wt"), c("wt", "hp", "qsec")))
)

# ---------------------------------------------------------------------------
# Fitting and extraction.

with_warnings <- function(expr) {
  msgs <- character(0)
  value <- withCallingHandlers(expr, warning = function(w) {
    msgs <<- c(msgs, trimws(conditionMessage(w)))
    invokeRestart("muffleWarning")
  })
  list(value = value, warnings = unique(msgs))
}

align <- function(v, names_all) {
  out <- rep(NA_real_, length(names_all))
  names(out) <- names_all
  out[names(v)] <- v
  unname(out)
}

formula_of <- function(response, predictors, intercept, offset) {
  rhs <- paste(predictors, collapse = " + ")
  if (!intercept) rhs <- paste("0 +", rhs)
  if (!is.null(offset)) rhs <- paste0(rhs, " + offset(", offset, ")")
  as.formula(paste(response, "~", rhs))
}

fit_glm <- function(spec, predictors = spec$predictors) {
  d <- data[[spec$data]]
  fml <- formula_of(spec$response, predictors, spec$intercept, spec$offset)
  fam <- get(spec$family)(link = spec$link)
  if (is.null(spec$weights)) {
    eval(bquote(glm(.(fml), family = fam, data = d)))
  } else {
    eval(bquote(glm(.(fml), family = fam, data = d, weights = .(as.name(spec$weights)))))
  }
}

reference_for <- function(name, spec) {
  d <- data[[spec$data]]
  fitted <- with_warnings(fit_glm(spec))
  fit <- fitted$value
  stopifnot(identical(attr(terms(fit), "term.labels"), spec$predictors))
  s <- summary(fit)
  cf <- coef(fit)
  cn <- names(cf)
  sc <- s$coefficients
  stat_name <- colnames(sc)[3L]
  p_name <- colnames(sc)[4L]
  V <- vcov(fit, complete = TRUE)
  stopifnot(identical(rownames(V), cn))
  ll <- logLik(fit)
  nd <- d[1:5, , drop = FALSE]
  pred <- predict(fit, newdata = nd, type = "response")
  list(
    formula = paste(deparse(formula(fit)), collapse = " "),
    data_file = paste0(spec$data, ".csv"),
    response = spec$response,
    predictors = I(spec$predictors),
    intercept = spec$intercept,
    weights_column = spec$weights,
    offset_column = spec$offset,
    family = spec$family,
    link = spec$link,
    n_obs = as.integer(nobs(fit)),
    rank = as.integer(fit$rank),
    df_residual = as.integer(fit$df.residual),
    df_null = as.integer(fit$df.null),
    coef_names = I(cn),
    aliased = I(unname(s$aliased[cn])),
    coefficients = I(unname(cf)),
    std_error = I(align(sc[, "Std. Error"], cn)),
    statistic_name = stat_name,
    statistic = I(align(sc[, stat_name], cn)),
    p_value = I(align(sc[, p_name], cn)),
    vcov = rows_of(V),
    deviance = deviance(fit),
    null_deviance = fit$null.deviance,
    dispersion = s$dispersion,
    aic = AIC(fit),
    bic = BIC(fit),
    loglik = as.numeric(ll),
    loglik_df = as.numeric(attr(ll, "df")),
    iter = as.integer(fit$iter),
    converged = fit$converged,
    boundary = fit$boundary,
    deviance_residual_quantiles = I(unname(quantile(residuals(fit, type = "deviance")))),
    predict_response = I(unname(pred)),
    warnings = I(fitted$warnings),
    summary_text = paste(capture.output(print(s)), collapse = "\n")
  )
}

anova_for <- function(name, spec) {
  if (is.null(spec$case)) {
    d <- data[[spec$data]]
    fits <- lapply(spec$models, function(p) {
      fml <- formula_of(spec$response, p, TRUE, NULL)
      eval(bquote(lm(.(fml), data = d)))
    })
    base <- list(data = spec$data, response = spec$response, weights = NULL,
                 offset = NULL, family = NULL, link = NULL, intercept = TRUE)
    kind <- "lm"
  } else {
    base <- cases[[spec$case]]
    fits <- lapply(spec$models, function(p) fit_glm(base, p))
    kind <- "glm"
  }
  a <- with_warnings(do.call(anova, c(fits, list(test = spec$test))))
  tab <- as.matrix(a$value)
  list(
    kind = kind,
    case = if (is.null(spec$case)) NULL else spec$case,
    data_file = paste0(base$data, ".csv"),
    response = base$response,
    family = base$family,
    link = base$link,
    weights_column = base$weights,
    offset_column = base$offset,
    test = spec$test,
    models = lapply(spec$models, function(p) I(p)),
    columns = I(colnames(tab)),
    table = rows_of(unname(tab)),
    warnings = I(a$warnings),
    text = paste(capture.output(print(a$value)), collapse = "\n")
  )
}

out <- list(
  r_version = R.version.string,
  mass_version = as.character(packageVersion("MASS")),
  generated_by = "tests/reference/glm/make_glm_reference.R",
  cases = I(names(cases)),
  anova_cases = I(names(anovas))
)
for (nm in names(cases)) out[[nm]] <- reference_for(nm, cases[[nm]])
out[["anova"]] <- lapply(anovas, function(spec) NULL)
for (nm in names(anovas)) out[["anova"]][[nm]] <- anova_for(nm, anovas[[nm]])

con <- file("glm_reference.json", open = "w", encoding = "UTF-8")
writeLines(to_json(out), con)
close(con)
cat("wrote glm_reference.json,", length(cases), "GLM cases,", length(anovas),
    "anova cases and", length(datasets), "CSV files\n")
