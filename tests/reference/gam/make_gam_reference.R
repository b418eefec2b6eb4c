# Reference fits of R's mgcv for tests/gam/test_gam_reference.py.
#
# Run from this directory:
#
#     cd tests/reference/gam && Rscript make_gam_reference.R
#
# Requires R with mgcv. Writes sim.csv (n = 400, set.seed(20261126): x1, x2 uniform on [0, 1],
# a three-level factor f, a Gaussian, a binary, a count and a Gamma response) and gam_reference.json:
# for each family (gaussian, binomial, poisson) and method ("GCV.Cp", "REML") the fit of
#     y ~ s(x1, bs = "cr", k = 10) + s(x2, bs = "cr", k = 10) + f
# with its smoothing parameters (sp), the edf of each smooth, fitted values (response scale),
# the parametric table of summary.gam (estimate, se, t/z, p), the smooth table (edf, Ref.df,
# F/Chi.sq, p), r.sq, dev.expl, the criterion (gcv.ubre), the scale (sig2), and the term-wise
# predictions with their standard errors at 11 new points (predict(type = "terms",
# se.fit = TRUE)). Also the same Gaussian model with bs = "bs" (k = 10) and a te(x1, x2)
# (cr margins, k = 5) fit, both by REML, and the Gamma response (inverse link) by both.
# Seed 004's E28: the 2011 rows of the bundled gapminder.csv (complete cases, n = 166;
# written to gapminder2011.csv) with
#     life_expectancy ~ s(fertility) + s(infant_mortality) + s(gdp) + continent
# (cr bases, k = 10, GCV.Cp; continent treatment coded against Africa).
suppressPackageStartupMessages(library(mgcv))
source("../json_writer.R")

set.seed(20261126)
n <- 400
x1 <- runif(n)
x2 <- runif(n)
f <- factor(sample(c("a", "b", "c"), n, replace = TRUE))
eff <- c(a = 0, b = 0.6, c = -0.4)[as.character(f)]
eta <- sin(2 * pi * x1) + 1.5 * (x2 - 0.5)^2 * 4 - 1 + eff
y_gauss <- eta + rnorm(n, sd = 0.4)
y_binom <- rbinom(n, 1, plogis(eta))
y_pois <- rpois(n, exp(0.5 * eta + 1))
y_gamma <- rgamma(n, shape = 3, rate = 3 / (1 / (1 + 0.3 * exp(eta))))
d <- data.frame(x1 = x1, x2 = x2, f = f, y_gauss = y_gauss, y_binom = y_binom, y_pois = y_pois,
                y_gamma = y_gamma)
write.csv(format(d, digits = 17), "sim.csv", row.names = FALSE, quote = FALSE)
d <- read.csv("sim.csv", stringsAsFactors = TRUE)

new <- data.frame(x1 = seq(0, 1, length = 11), x2 = seq(0.05, 0.95, length = 11),
                  f = factor(rep(c("a", "b", "c"), length = 11), levels = c("a", "b", "c")))

describe <- function(m, new) {
  s <- summary(m)
  pt <- s$p.table
  st <- s$s.table
  pr <- predict(m, newdata = new, type = "terms", se.fit = TRUE)
  list(
    sp = unname(m$sp),
    edf = unname(st[, 1]),
    fitted = unname(fitted(m)),
    p_names = rownames(pt),
    p_table = rows_of(pt),
    s_table = rows_of(st),
    r_sq = s$r.sq,
    dev_expl = s$dev.expl,
    score = unname(m$gcv.ubre),
    scale = m$sig2,
    n = s$n,
    residual_df = m$df.residual,
    terms_fit = rows_of(pr$fit),
    terms_se = rows_of(pr$se.fit),
    link_new = unname(predict(m, newdata = new)),
    intercept = unname(coef(m)[1])
  )
}

fits <- list()
for (family in c("gaussian", "binomial", "poisson")) {
  fam <- switch(family, gaussian = gaussian(), binomial = binomial(), poisson = poisson())
  resp <- switch(family, gaussian = "y_gauss", binomial = "y_binom", poisson = "y_pois")
  form <- as.formula(paste(resp, "~ s(x1, bs = 'cr', k = 10) + s(x2, bs = 'cr', k = 10) + f"))
  for (method in c("GCV.Cp", "REML")) {
    m <- gam(form, data = d, family = fam, method = method)
    fits[[paste(family, method, sep = "_")]] <- describe(m, new)
  }
}
for (method in c("GCV.Cp", "REML")) {
  m <- gam(y_gamma ~ s(x1, bs = "cr", k = 10) + s(x2, bs = "cr", k = 10) + f, data = d,
           family = Gamma(), method = method)
  fits[[paste("gamma", method, sep = "_")]] <- describe(m, new)
}
m <- gam(y_gauss ~ s(x1, bs = "bs", k = 10) + s(x2, bs = "bs", k = 10) + f, data = d,
         method = "REML")
fits[["gaussian_bs_REML"]] <- describe(m, new)
m <- gam(y_gauss ~ te(x1, x2, bs = "cr", k = 5) + f, data = d, method = "REML")
fits[["gaussian_te_REML"]] <- describe(m, new)

gm <- read.csv("../../../src/statlearning/datasets/data/gapminder.csv")
gm <- gm[gm$year == 2011, c("fertility", "infant_mortality", "gdp", "continent",
                            "life_expectancy")]
gm <- gm[complete.cases(gm), ]
write.csv(format(gm, digits = 17), "gapminder2011.csv", row.names = FALSE, quote = FALSE)
gm <- read.csv("gapminder2011.csv", stringsAsFactors = TRUE)
m <- gam(life_expectancy ~ s(fertility, bs = "cr") + s(infant_mortality, bs = "cr") +
           s(gdp, bs = "cr") + continent, data = gm, method = "GCV.Cp")
gm_new <- gm[c(1, 50, 100, 150), ]
fits[["gapminder_e28"]] <- describe(m, gm_new)
fits[["gapminder_e28"]]$mean_y <- mean(gm$life_expectancy)

out <- list(
  r_version = R.version.string,
  mgcv_version = as.character(packageVersion("mgcv")),
  new_x1 = new$x1, new_x2 = new$x2, new_f = as.character(new$f),
  fits = fits
)
writeLines(to_json(out), "gam_reference.json")
