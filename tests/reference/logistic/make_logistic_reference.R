# Reference numbers from R's glm(family = binomial) and nnet::multinom for the
# LogisticRegression tests.
#
# Run from this directory:
#
#     cd tests/reference/logistic && Rscript make_logistic_reference.R
#
# Requires R (package stats), dslabs (Debian: r-cran-dslabs) and nnet
# (Debian: r-cran-nnet). The JSON is written in base R by
# ../json_writer.R.
#
# Produces, in the current directory:
#   <case>.csv               the data of each case: predictors, then the response
#                            (0/1, or integer class codes 0..K-1 for multinomial
#                            cases), then a `weight` column where weights are
#                            used. Every double is written with 17 significant
#                            digits and read back to check it gives the identical
#                            doubles; the fits use the read-back data.
#   logistic_reference.json  per case: coefficients, standard errors, z and p
#                            values, vcov, deviance, null deviance, degrees of
#                            freedom, logLik, AIC, BIC, iterations, deviance
#                            residual quantiles, fitted probabilities at new
#                            points and the printed summary. For multinomial
#                            cases: the coefficient matrix (reference = first
#                            class), deviance and AIC. Doubles use "%.17g";
#                            NA is null. R and package versions at the top.

options(useFancyQuotes = FALSE, width = 80, warn = 1)

suppressPackageStartupMessages({
  library(dslabs)
  library(nnet)
})
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

gm <- gapminder[complete.cases(gapminder), ]
stopifnot(nrow(gm) == 7139L)
gm <- gm[gm$year == 2011, ]
stopifnot(nrow(gm) == 166L)
rownames(gm) <- NULL
gm_bin <- data.frame(infant_mortality = gm$infant_mortality,
                     fertility = gm$fertility,
                     le_high = as.numeric(gm$life_expectancy > 72.45))
stopifnot(sum(gm_bin$le_high) == 83)

mt <- mtcars
rownames(mt) <- NULL
mt_bin <- data.frame(wt = mt$wt, hp = mt$hp, am = mt$am)
mt_w <- data.frame(wt = mt$wt, hp = mt$hp, am = mt$am, weight = mt$carb)
mt_rd <- data.frame(wt = mt$wt, hp = mt$hp, wt2 = 2 * mt$wt, am = mt$am)
mt_noint <- data.frame(wt = mt$wt, qsec = mt$qsec, am = mt$am)

continent <- factor(gm$continent)
gm_multi <- data.frame(infant_mortality = gm$infant_mortality,
                       fertility = gm$fertility,
                       log_gdp_pc = log(gm$gdp / gm$population),
                       continent = as.integer(continent) - 1L)

binary_cases <- list(
  mtcars_am = list(data = mt_bin, formula = "am ~ wt + hp", response = "am",
                   predictors = c("wt", "hp"), intercept = TRUE, weights = FALSE),
  gapminder2011 = list(data = gm_bin, formula = "le_high ~ infant_mortality + fertility",
                       response = "le_high", predictors = c("infant_mortality", "fertility"),
                       intercept = TRUE, weights = FALSE),
  mtcars_weighted = list(data = mt_w, formula = "am ~ wt + hp", response = "am",
                         predictors = c("wt", "hp"), intercept = TRUE, weights = TRUE),
  mtcars_aliased = list(data = mt_rd, formula = "am ~ wt + hp + wt2", response = "am",
                        predictors = c("wt", "hp", "wt2"), intercept = TRUE, weights = FALSE),
  mtcars_no_intercept = list(data = mt_noint, formula = "am ~ 0 + wt + qsec",
                             response = "am", predictors = c("wt", "qsec"),
                             intercept = FALSE, weights = FALSE)
)

probs <- c(0.1, 0.3, 0.5, 0.7, 0.9)

binary_result <- function(name, case) {
  d <- write_case_csv(case$data, paste0(name, ".csv"))
  f <- as.formula(case$formula)
  fit <- if (case$weights) glm(f, family = binomial, data = d, weights = weight,
                               control = glm.control(epsilon = 1e-8, maxit = 25))
         else glm(f, family = binomial, data = d,
                  control = glm.control(epsilon = 1e-8, maxit = 25))
  s <- summary(fit)
  cf <- coef(fit)
  tab <- matrix(NA_real_, length(cf), 4, dimnames = list(names(cf), NULL))
  tab[rownames(s$coefficients), ] <- s$coefficients
  V <- vcov(fit, complete = TRUE)
  nd <- as.data.frame(lapply(setNames(case$predictors, case$predictors),
                             function(p) unname(quantile(d[[p]], probs))))
  if (name == "mtcars_aliased") nd$wt2 <- 2 * nd$wt
  list(
    formula = case$formula,
    data_file = paste0(name, ".csv"),
    response = case$response,
    predictors = I(case$predictors),
    intercept = case$intercept,
    weights_column = if (case$weights) "weight" else NULL,
    coef_names = I(names(cf)),
    aliased = I(unname(is.na(cf))),
    coefficients = I(unname(cf)),
    std_error = I(unname(tab[, 2])),
    z_value = I(unname(tab[, 3])),
    p_value = I(unname(tab[, 4])),
    vcov = rows_of(V),
    deviance = fit$deviance,
    null_deviance = fit$null.deviance,
    df_residual = fit$df.residual,
    df_null = fit$df.null,
    rank = fit$rank,
    n_obs = nobs(fit),
    loglik = as.numeric(logLik(fit)),
    aic = AIC(fit),
    bic = BIC(fit),
    iter = fit$iter,
    converged = fit$converged,
    deviance_residual_quantiles = I(unname(quantile(residuals(fit, type = "deviance")))),
    newdata = rows_of(as.matrix(nd)),
    predict_response = I(unname(predict(fit, newdata = nd, type = "response"))),
    predict_link = I(unname(predict(fit, newdata = nd, type = "link"))),
    summary_text = paste(capture.output(print(s)), collapse = "\n")
  )
}

multinomial_result <- function(name, d, predictors) {
  d <- write_case_csv(d, paste0(name, ".csv"))
  d$cls <- factor(d$continent)
  f <- as.formula(paste("cls ~", paste(predictors, collapse = " + ")))
  fit <- multinom(f, data = d, trace = FALSE, maxit = 10000, abstol = 1e-300,
                  reltol = 1e-16)
  cf <- coef(fit)
  list(
    formula = paste("continent ~", paste(predictors, collapse = " + ")),
    data_file = paste0(name, ".csv"),
    response = "continent",
    predictors = I(predictors),
    classes = I(levels(d$cls)),
    coef_names = I(colnames(cf)),
    coefficients = rows_of(cf),
    deviance = deviance(fit),
    aic = AIC(fit),
    loglik = as.numeric(logLik(fit)),
    converged = fit$convergence == 0L,
    fitted_first_rows = rows_of(fitted(fit)[1:5, , drop = FALSE])
  )
}

out <- list(
  r_version = R.version.string,
  dslabs_version = as.character(packageVersion("dslabs")),
  nnet_version = as.character(packageVersion("nnet")),
  generated_by = "make_logistic_reference.R",
  binary_cases = I(names(binary_cases)),
  multinomial_cases = I("gapminder2011_continent")
)
for (nm in names(binary_cases)) out[[nm]] <- binary_result(nm, binary_cases[[nm]])
out[["gapminder2011_continent"]] <- multinomial_result(
  "gapminder2011_continent", gm_multi, c("infant_mortality", "fertility", "log_gdp_pc"))

writeLines(to_json(out), "logistic_reference.json")
