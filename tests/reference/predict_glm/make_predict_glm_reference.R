# Reference numbers from R's predict.glm(se.fit = TRUE) for predict_interval of
# GLMRegressor and LogisticRegression.
#
# Run from this directory:
#
#     cd tests/reference/predict_glm && Rscript make_predict_glm_reference.R
#
# Requires R (package stats only). The data are the CSV files of ../glm and
# ../logistic (written there with 17 significant digits by their own scripts);
# the JSON is written by ../json_writer.R.
#
# predict.glm gives the fit and its standard error but no interval. For each
# case this script records, for the first rows of the data (the new data):
#   link_fit, link_se   predict(fit, newdata, type = "link", se.fit = TRUE)
#   response_fit, response_se
#                       predict(..., type = "response", se.fit = TRUE): the
#                       delta-method standard error |dmu/deta| * link_se
#   residual_scale      sqrt(dispersion), as predict.glm reports it
#   quantile            qnorm(0.5 + level/2) when the dispersion is fixed
#                       (binomial, poisson), qt(0.5 + level/2, df.residual)
#                       otherwise (the reference distribution of summary.glm)
#   lower, upper        the confidence interval for the mean: the link-scale
#                       interval link_fit -/+ quantile * link_se mapped by
#                       family$linkinv (sorted, for decreasing links)
#   pred_lower, pred_upper
#                       gaussian family only: response_fit -/+ quantile *
#                       sqrt(response_se^2 + residual_scale^2 / weight); for
#                       the identity link this is predict.lm(interval =
#                       "prediction"), also recorded as lm_pred_lower/upper.

options(useFancyQuotes = FALSE, warn = 1)
source("../json_writer.R")

glm_dir <- "../glm"
logit_dir <- "../logistic"

cases <- list(
  poisson_offset = list(file = file.path(glm_dir, "insurance.csv"),
    formula = claims ~ district2 + district3 + district4 + group + age + offset(log_holders),
    family = poisson(), level = 0.95, offset = "log_holders"),
  gamma_inverse = list(file = file.path(glm_dir, "clotting.csv"),
    formula = time ~ log_u + lot2 + log_u_lot2, family = Gamma(), level = 0.95),
  inverse_gaussian_log = list(file = file.path(glm_dir, "invgauss.csv"),
    formula = y ~ x1 + x2, family = inverse.gaussian(link = "log"), level = 0.9),
  gaussian_log = list(file = file.path(glm_dir, "mtcars.csv"),
    formula = mpg ~ wt + hp, family = gaussian(link = "log"), level = 0.95),
  gaussian_identity = list(file = file.path(glm_dir, "mtcars.csv"),
    formula = mpg ~ wt + hp + qsec, family = gaussian(), level = 0.9),
  binomial_logit = list(file = file.path(logit_dir, "mtcars_am.csv"),
    formula = am ~ wt + hp, family = binomial(), level = 0.95)
)

out <- list()
for (name in names(cases)) {
  cs <- cases[[name]]
  d <- read.csv(cs$file, check.names = FALSE)
  fit <- glm(cs$formula, family = cs$family, data = d, control = glm.control(epsilon = 1e-12,
                                                                            maxit = 100))
  new <- d[1:6, , drop = FALSE]
  pl <- predict(fit, newdata = new, type = "link", se.fit = TRUE)
  pr <- predict(fit, newdata = new, type = "response", se.fit = TRUE)
  fam <- fit$family$family
  fixed <- fam %in% c("binomial", "poisson")
  q <- if (fixed) qnorm(0.5 + cs$level / 2) else qt(0.5 + cs$level / 2, fit$df.residual)
  a <- fit$family$linkinv(pl$fit - q * pl$se.fit)
  b <- fit$family$linkinv(pl$fit + q * pl$se.fit)
  rec <- list(
    data_file = cs$file, response = all.vars(cs$formula)[1],
    predictors = attr(terms(cs$formula), "term.labels")[
      !grepl("^offset\\(", attr(terms(cs$formula), "term.labels"))],
    offset_column = if (is.null(cs$offset)) NULL else cs$offset,
    family = fam, link = fit$family$link, level = cs$level, n_new = nrow(new),
    coefficients = unname(coef(fit)),
    link_fit = unname(pl$fit), link_se = unname(pl$se.fit),
    response_fit = unname(pr$fit), response_se = unname(pr$se.fit),
    residual_scale = pl$residual.scale, quantile = q,
    lower = pmin(a, b), upper = pmax(a, b))
  if (fam == "gaussian") {
    half <- q * sqrt(pr$se.fit^2 + pr$residual.scale^2)
    rec$pred_lower <- unname(pr$fit - half)
    rec$pred_upper <- unname(pr$fit + half)
    if (fit$family$link == "identity") {
      lmfit <- lm(cs$formula, data = d)
      p <- predict(lmfit, newdata = new, interval = "prediction", level = cs$level)
      rec$lm_pred_lower <- unname(p[, "lwr"])
      rec$lm_pred_upper <- unname(p[, "upr"])
    }
  }
  out[[name]] <- rec
}

doc <- list(r_version = R.version.string, cases = out)
writeLines(to_json(doc), "predict_glm_reference.json")
