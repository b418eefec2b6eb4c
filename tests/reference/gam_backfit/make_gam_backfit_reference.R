# Reference numbers for statlearning.gam._backfitting (local scoring with modified
# backfitting, as R's gam package: gam::gam with s() and lo() terms).
#
# Run from this directory:
#
#     cd tests/reference/gam_backfit && Rscript make_gam_backfit_reference.R
#
# Requires R with the package gam (1.22-1 was used). Writes data_gam.csv, data_small.csv
# (17 significant digits, read back and checked; the fits are made on the read-back data)
# and gam_backfit_reference.json.
#
# The smoothing variables are given to at most 6 significant digits: gam rounds them with
# signif(x, 6), which is then the identity.

options(useFancyQuotes = FALSE, width = 80, warn = 1)
suppressPackageStartupMessages(library(gam))
source("../json_writer.R")

# --- data ------------------------------------------------------------------
set.seed(20241126)
n <- 200
x1 <- round(runif(n, 0, 10), 2)          # ties: about 20 repeated values
x2 <- round(rnorm(n), 3)
fc <- sample(0:2, n, replace = TRUE)      # factor codes 0, 1, 2 (level 0 the baseline)
w <- rep(c(1, 2, 0.5, 1.5), length.out = n)
eta_g <- sin(x1) + 0.5 * x2 + c(0, 0.8, -0.5)[fc + 1]
y <- eta_g + rnorm(n, sd = 0.4)
yb <- rbinom(n, 1, plogis(sin(x1) + 0.8 * x2))
yc <- rpois(n, exp(0.5 + 0.6 * sin(x1) + 0.3 * x2))
d <- write_csv17(data.frame(x1 = x1, x2 = x2, f = fc, w = w, y = y, yb = yb, yc = yc),
                 "data_gam.csv")
d$fac <- factor(d$f)

m <- 40
xs <- round(seq(0, 5, length.out = m) + runif(m, -0.05, 0.05), 3)
zs <- round(runif(m), 3)
ys <- cos(xs) + zs + rnorm(m, sd = 0.2)
ds <- write_csv17(data.frame(x1 = xs, x2 = zs, y = ys), "data_small.csv")

newd <- data.frame(x1 = c(-0.5, 0.0, 0.37, 2.5, 5.55, 9.99, 10.6),
                   x2 = c(-1.2, 0.0, 0.4, 1.1, -0.3, 2.0, 0.5),
                   f = c(0, 1, 2, 0, 1, 2, 0))
newd$fac <- factor(newd$f, levels = levels(d$fac))
newlo <- newd[2:5, ]                      # inside the data: loess's surface is NA outside
newlo$x1 <- c(0.5, 2.5, 5.55, 8.0)

ctrl <- gam.control(epsilon = 1e-7, bf.epsilon = 1e-7, maxit = 30, bf.maxit = 30)

summarise <- function(fit, data, new) {
  tt <- predict(fit, type = "terms")
  pt <- predict(fit, newdata = new, type = "terms")
  list(
    fitted = unname(fitted(fit)),
    eta = unname(fit$additive.predictors),
    coefficients = unname(coef(fit)),
    coef_names = names(coef(fit)),
    terms = unname(lapply(seq_len(ncol(tt)), function(j) unname(tt[, j]))),
    term_names = colnames(tt),
    constant = attr(tt, "constant"),
    nl_df = unname(fit$nl.df),
    df_residual = fit$df.residual,
    deviance = fit$deviance,
    null_deviance = fit$null.deviance,
    iter = fit$iter,
    new_terms = unname(lapply(seq_len(ncol(pt)), function(j) unname(pt[, j]))),
    new_constant = attr(pt, "constant"),
    new_link = unname(predict(fit, newdata = new, type = "link"))
  )
}

cases <- list()
fit <- gam(y ~ s(x1, 4) + x2, data = d, control = ctrl)
cases$gaussian <- c(list(formula = "y ~ s(x1, 4) + x2"), summarise(fit, d, newd))

fit <- gam(y ~ s(x1, 4) + s(x2, 5) + fac, data = d, control = ctrl)
cases$gaussian_two <- c(list(formula = "y ~ s(x1, 4) + s(x2, 5) + fac"), summarise(fit, d, newd))

fit <- gam(y ~ s(x1, 6) + x2, data = d, weights = w, control = ctrl)
cases$gaussian_weighted <- c(list(formula = "y ~ s(x1, 6) + x2, weights = w"),
                             summarise(fit, d, newd))

fit <- gam(y ~ s(x1, 3) + x2, data = ds, control = ctrl)
cases$gaussian_small <- c(list(formula = "y ~ s(x1, 3) + x2 (data_small)"),
                          summarise(fit, ds, newd[2:5, ]))

fit <- gam(yb ~ s(x1, 4) + x2, data = d, family = binomial, control = ctrl)
cases$binomial <- c(list(formula = "yb ~ s(x1, 4) + x2, binomial"), summarise(fit, d, newd))

fit <- gam(yc ~ s(x1, 4) + s(x2, 3), data = d, family = poisson, control = ctrl)
cases$poisson <- c(list(formula = "yc ~ s(x1, 4) + s(x2, 3), poisson"), summarise(fit, d, newd))

fit <- gam(y ~ lo(x1, span = 0.5) + x2, data = d, control = ctrl)
cases$loess <- c(list(formula = "y ~ lo(x1, span = 0.5) + x2"), summarise(fit, d, newlo))

fit <- gam(y ~ lo(x1, span = 0.3, degree = 2) + s(x2, 4) + fac, data = d, control = ctrl)
cases$loess_mixed <- c(list(formula = "y ~ lo(x1, span = 0.3, degree = 2) + s(x2, 4) + fac"),
                       summarise(fit, d, newlo))

out <- list(
  r_version = R.version.string,
  gam_version = as.character(packageVersion("gam")),
  new_x1 = newd$x1, new_x2 = newd$x2, new_f = newd$f,
  cases = cases
)
writeLines(to_json(out), "gam_backfit_reference.json")
