# Reference numbers from R's lm() for the LinearRegression tests.
#
# Run from this directory:
#
#     cd tests/reference/lm && Rscript make_lm_reference.R
#
# Requires R (package stats) and the dslabs package (Debian: r-cran-dslabs).
# No other packages are used; the JSON is written by
# hand in ../json_writer.R.
#
# Produces, in the current directory:
#   <case>.csv         one file per case: the predictors in formula order, then
#                      the response, then (weighted case only) a `weight`
#                      column. Every double is written with 17 significant
#                      digits, and the file is read back and checked to give
#                      the identical doubles; the fits are made on the
#                      read-back data, so R and the Python tests see exactly
#                      the same numbers.
#   lm_reference.json  for each case: coefficients, standard errors, t and p
#                      values, sigma, R^2, F statistic, log-likelihood,
#                      AIC/BIC, vcov, confidence intervals, predictions with
#                      intervals at five new points, residual quantiles and
#                      the printed summary. Every double is printed with
#                      sprintf("%.17g"); NA/NaN/Inf are written as null. The
#                      R version and the dslabs version are recorded at the
#                      top level.

options(useFancyQuotes = FALSE, width = 80, warn = 1)

suppressPackageStartupMessages(library(dslabs))

# ---------------------------------------------------------------------------
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
# Case data.

probs <- c(0.1, 0.3, 0.5, 0.7, 0.9)
quantile_newdata <- function(d, predictors) {
  as.data.frame(lapply(setNames(predictors, predictors),
                       function(p) unname(quantile(d[[p]], probs))),
                check.names = FALSE)
}

gm <- gapminder[complete.cases(gapminder), ]
stopifnot(nrow(gm) == 7139L)
gm <- gm[gm$year == 2011, c("infant_mortality", "fertility", "life_expectancy")]
stopifnot(nrow(gm) == 166L)
rownames(gm) <- NULL

mt <- mtcars
rownames(mt) <- NULL
mt_rd <- data.frame(wt = mt$wt, hp = mt$hp, wt2 = 2 * mt$wt, disp = mt$disp,
                    hp_plus_wt = mt$hp + mt$wt, mpg = mt$mpg)
mt_w <- data.frame(wt = mt$wt, hp = mt$hp, mpg = mt$mpg, weight = mt$cyl / 4)

lg <- longley
rownames(lg) <- NULL

# New points for the rank-deficient case keep the exact linear relations of
# the data (wt2 = 2 wt, hp_plus_wt = hp + wt).
rd_newdata <- function(d, predictors) {
  nd <- quantile_newdata(d, c("wt", "hp", "disp"))
  data.frame(wt = nd$wt, hp = nd$hp, wt2 = 2 * nd$wt, disp = nd$disp,
             hp_plus_wt = nd$hp + nd$wt)
}

cases <- list(
  gapminder2011 = list(
    data = gm, formula = "life_expectancy ~ infant_mortality + fertility",
    response = "life_expectancy", predictors = c("infant_mortality", "fertility"),
    intercept = TRUE, weights = NULL),
  mtcars = list(
    data = mt[, c("wt", "hp", "qsec", "drat", "mpg")],
    formula = "mpg ~ wt + hp + qsec + drat",
    response = "mpg", predictors = c("wt", "hp", "qsec", "drat"),
    intercept = TRUE, weights = NULL),
  longley = list(
    data = lg, formula = "Employed ~ .",
    response = "Employed",
    predictors = c("GNP.deflator", "GNP", "Unemployed", "Armed.Forces",
                   "Population", "Year"),
    intercept = TRUE, weights = NULL),
  rank_deficient = list(
    data = mt_rd, formula = "mpg ~ wt + hp + wt2 + disp + hp_plus_wt",
    response = "mpg", predictors = c("wt", "hp", "wt2", "disp", "hp_plus_wt"),
    intercept = TRUE, weights = NULL, newdata = rd_newdata),
  weighted = list(
    data = mt_w, formula = "mpg ~ wt + hp",
    response = "mpg", predictors = c("wt", "hp"),
    intercept = TRUE, weights = "weight"),
  no_intercept = list(
    data = mt[, c("wt", "hp", "mpg")], formula = "mpg ~ 0 + wt + hp",
    response = "mpg", predictors = c("wt", "hp"),
    intercept = FALSE, weights = NULL),
  simple_longley_gnp = list(
    data = lg[, c("GNP", "Employed")], formula = "Employed ~ GNP",
    response = "Employed", predictors = "GNP",
    intercept = TRUE, weights = NULL)
)

# ---------------------------------------------------------------------------
# Fitting and extraction.

# Runs expr, returning its value and the messages of any warnings raised.
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

interval_rows <- function(m, names_all) {
  full <- matrix(NA_real_, length(names_all), 2L,
                 dimnames = list(names_all, NULL))
  full[rownames(m), ] <- m
  rows_of(full)
}

reference_for <- function(name, spec) {
  file <- paste0(name, ".csv")
  cols <- c(spec$predictors, spec$response, spec$weights)
  stopifnot(identical(names(spec$data), cols))
  d <- write_case_csv(spec$data, file)

  fml <- as.formula(spec$formula)
  fit <- if (is.null(spec$weights)) {
    eval(bquote(lm(.(fml), data = d)))
  } else {
    eval(bquote(lm(.(fml), data = d, weights = .(as.name(spec$weights)))))
  }
  stopifnot(identical(attr(terms(fit), "term.labels"), spec$predictors),
            identical(attr(terms(fit), "intercept") == 1L, spec$intercept))

  s <- summary(fit)
  cf <- coef(fit)
  cn <- names(cf)
  sc <- s$coefficients
  fs <- s$fstatistic
  ll <- logLik(fit)
  V <- vcov(fit, complete = TRUE)
  stopifnot(identical(rownames(V), cn), identical(colnames(V), cn))

  nd_fun <- if (is.null(spec$newdata)) quantile_newdata else spec$newdata
  nd <- nd_fun(d, spec$predictors)
  stopifnot(identical(names(nd), spec$predictors), nrow(nd) == 5L)

  p_fit <- with_warnings(predict(fit, newdata = nd))
  p_c95 <- with_warnings(predict(fit, newdata = nd, interval = "confidence", level = 0.95))
  p_p95 <- with_warnings(predict(fit, newdata = nd, interval = "prediction", level = 0.95))
  p_p90 <- with_warnings(predict(fit, newdata = nd, interval = "prediction", level = 0.90))
  pred_warnings <- unique(c(p_fit$warnings, p_c95$warnings, p_p95$warnings,
                            p_p90$warnings))

  list(
    formula = spec$formula,
    data_file = file,
    response = spec$response,
    predictors = I(spec$predictors),
    intercept = spec$intercept,
    weights_column = spec$weights,
    n_obs = as.integer(nobs(fit)),
    rank = as.integer(fit$rank),
    df_residual = as.integer(fit$df.residual),
    coef_names = I(cn),
    aliased = I(unname(s$aliased[cn])),
    coefficients = I(unname(cf)),
    std_error = I(align(sc[, "Std. Error"], cn)),
    t_value = I(align(sc[, "t value"], cn)),
    p_value = I(align(sc[, "Pr(>|t|)"], cn)),
    sigma = s$sigma,
    r_squared = s$r.squared,
    adj_r_squared = s$adj.r.squared,
    fstatistic = I(unname(fs)),
    f_pvalue = unname(pf(fs[1L], fs[2L], fs[3L], lower.tail = FALSE)),
    loglik = as.numeric(ll),
    loglik_df = as.numeric(attr(ll, "df")),
    aic = AIC(fit),
    bic = BIC(fit),
    deviance = deviance(fit),
    vcov = rows_of(V),
    confint_95 = interval_rows(confint(fit, level = 0.95), cn),
    confint_90 = interval_rows(confint(fit, level = 0.90), cn),
    residual_quantiles = I(unname(quantile(s$residuals))),
    newdata = rows_of(as.matrix(nd)),
    predict_fit = I(unname(p_fit$value)),
    confidence_95 = rows_of(p_c95$value[, c("lwr", "upr"), drop = FALSE]),
    prediction_95 = rows_of(p_p95$value[, c("lwr", "upr"), drop = FALSE]),
    prediction_90 = rows_of(p_p90$value[, c("lwr", "upr"), drop = FALSE]),
    predict_warnings = I(pred_warnings),
    summary_text = paste(capture.output(print(s)), collapse = "\n")
  )
}

out <- list(
  r_version = R.version.string,
  dslabs_version = as.character(packageVersion("dslabs")),
  generated_by = "tests/reference/lm/make_lm_reference.R",
  cases = I(names(cases))
)
for (nm in names(cases)) out[[nm]] <- reference_for(nm, cases[[nm]])

con <- file("lm_reference.json", open = "w", encoding = "UTF-8")
writeLines(to_json(out), con)
close(con)
cat("wrote lm_reference.json and", length(cases), "CSV files\n")
