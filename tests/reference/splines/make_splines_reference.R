# Reference numbers for statlearning.preprocessing (poly, bs, ns, cut and lm fits
# with standard errors), statlearning.smoothing.SmoothingSpline (smooth.spline)
# and statlearning.smoothing.LocalRegression (loess, surface = "direct").
#
# Run from this directory:
#
#     cd tests/reference/splines && Rscript make_splines_reference.R
#
# Requires R (packages stats, splines). The Gapminder 2011 data are read from
# ../lm/gapminder2011.csv (dslabs, complete cases, year 2011, 166 rows).
# Produces data_*.csv (17 significant digits, read back and checked, the fits
# are made on the read-back data) and splines_reference.json.

options(useFancyQuotes = FALSE, width = 80, warn = 1)
suppressPackageStartupMessages(library(splines))
source("../json_writer.R")

# --- data ------------------------------------------------------------------
gm <- read.csv("../lm/gapminder2011.csv")
set.seed(20240601)
n <- 120
x <- round(sort(runif(n, 0, 10)), 1)          # rounded: ties in x
y <- sin(x) + 0.3 * x + rnorm(n, sd = 0.4)
w <- rep(c(1, 2, 0.5), length.out = n)
sim <- write_csv17(data.frame(x = x, y = y, w = w), "data_sim1.csv")
n2 <- 100
x1 <- runif(n2, -2, 2); x2 <- runif(n2, 0, 50)
y2 <- x1^2 - 0.05 * x2 + sin(x2 / 8) + rnorm(n2, sd = 0.3)
y2[c(7, 33, 71)] <- y2[c(7, 33, 71)] + c(4, -5, 6)     # outliers for family = "symmetric"
sim2 <- write_csv17(data.frame(x1 = x1, x2 = x2, y = y2), "data_sim2.csv")
set.seed(7)
n3 <- 400
x3 <- sort(runif(n3, -3, 3))
y3 <- exp(-x3^2) + 0.2 * x3 + rnorm(n3, sd = 0.15)
sim3 <- write_csv17(data.frame(x = x3, y = y3), "data_sim3.csv")

fert <- gm$fertility; le <- gm$life_expectancy
newx <- c(min(fert) - 0.5, quantile(fert, c(0.1, 0.5, 0.9), names = FALSE), max(fert), max(fert) + 1)

# --- bases -----------------------------------------------------------------
mat <- function(m) rows_of(unclass(m)[, , drop = FALSE])
P <- poly(fert, 4)
bases <- list(
  newx = newx,
  poly4 = mat(P), poly4_alpha = attr(P, "coefs")$alpha, poly4_norm2 = attr(P, "coefs")$norm2,
  poly4_new = mat(predict(P, newx)),
  bs_df6 = mat(bs(fert, df = 6)), bs_df6_knots = attr(bs(fert, df = 6), "knots"),
  bs_df6_new = suppressWarnings(mat(predict(bs(fert, df = 6), newx))),
  bs_knots_deg2 = mat(bs(fert, knots = c(2, 3.5, 5), degree = 2)),
  bs_knots_deg2_new = suppressWarnings(mat(predict(bs(fert, knots = c(2, 3.5, 5), degree = 2), newx))),
  bs_df5_int = mat(bs(fert, df = 5, intercept = TRUE)),
  bs_bk = suppressWarnings(mat(bs(fert, df = 5, Boundary.knots = c(1.5, 6)))),
  ns_df4 = mat(ns(fert, df = 4)), ns_df4_knots = attr(ns(fert, df = 4), "knots"),
  ns_df4_new = mat(predict(ns(fert, df = 4), newx)),
  ns_knots = mat(ns(fert, knots = c(2, 3.5, 5))),
  ns_df1 = mat(ns(fert, df = 1)),
  ns_df5_int = mat(ns(fert, df = 5, intercept = TRUE)),
  cut4 = as.integer(cut(fert, 4, right = FALSE)),
  cut_breaks = as.integer(cut(fert, c(0, 2, 3, 5, 8), right = FALSE)),
  cut_right = as.integer(cut(fert, 4))
)
lmfit <- function(f) {
  fit <- lm(f, data = data.frame(fert = fert, le = le))
  p <- predict(fit, data.frame(fert = newx), se.fit = TRUE, interval = "confidence")
  list(coefficients = unname(coef(fit)), std_error = unname(sqrt(diag(vcov(fit)))),
       sigma = summary(fit)$sigma, r_squared = summary(fit)$r.squared,
       fit = unname(p$fit[, 1]), se_fit = unname(p$se.fit),
       lower = unname(p$fit[, 2]), upper = unname(p$fit[, 3]))
}
fits <- list(
  poly4 = lmfit(le ~ poly(fert, 4)),
  poly4_raw = lmfit(le ~ poly(fert, 4, raw = TRUE)),
  bs_df6 = suppressWarnings(lmfit(le ~ bs(fert, df = 6))),
  ns_df4 = lmfit(le ~ ns(fert, df = 4)),
  cut4 = { f <- lm(le ~ cut(fert, 4, right = FALSE));
           list(coefficients = unname(coef(f)), std_error = unname(sqrt(diag(vcov(f))))) }
)

# --- smooth.spline ---------------------------------------------------------
tight <- list(tol = 1e-12, eps = 1e-14, maxit = 5000)
ss_out <- function(fit, xnew) {
  list(x = fit$x, y = fit$y, w = fit$w, lev = fit$lev, df = fit$df, lambda = fit$lambda,
       spar = fit$spar, crit = fit$crit, cv_crit = fit$cv.crit, pen_crit = fit$pen.crit,
       knot = fit$fit$knot, coef = fit$fit$coef,
       xnew = xnew, pred = predict(fit, xnew)$y, pred_d1 = predict(fit, xnew, deriv = 1)$y,
       pred_d2 = predict(fit, xnew, deriv = 2)$y)
}
xs1 <- c(-1, 0.05, 2.5, 5, 7.77, 9.9, 12)
xs3 <- c(-4, -2.9, 0, 1.234, 3.5)
ss <- list(
  sim1_df5 = ss_out(smooth.spline(sim$x, sim$y, df = 5, all.knots = TRUE, control.spar = tight), xs1),
  sim1_df12_w = ss_out(smooth.spline(sim$x, sim$y, w = sim$w, df = 12, all.knots = TRUE, control.spar = tight), xs1),
  sim1_spar05 = ss_out(smooth.spline(sim$x, sim$y, spar = 0.5, all.knots = TRUE), xs1),
  sim1_spar12 = ss_out(smooth.spline(sim$x, sim$y, spar = 1.2, all.knots = TRUE), xs1),
  sim1_lambda = ss_out(smooth.spline(sim$x, sim$y, lambda = 1e-4, all.knots = TRUE), xs1),
  sim1_gcv = ss_out(smooth.spline(sim$x, sim$y, all.knots = TRUE, control.spar = tight), xs1),
  sim1_gcv_w = ss_out(smooth.spline(sim$x, sim$y, w = sim$w, all.knots = TRUE, control.spar = tight), xs1),
  sim3_cv = ss_out(smooth.spline(sim3$x, sim3$y, cv = TRUE, all.knots = TRUE, control.spar = tight), xs3),
  sim3_df8_nknots = ss_out(smooth.spline(sim3$x, sim3$y, df = 8, control.spar = tight), xs3),
  sim3_gcv_nknots = ss_out(smooth.spline(sim3$x, sim3$y, control.spar = tight), xs3),
  gm_spar = lapply(c(0, 0.5, 1, 1.5), function(s)
    ss_out(smooth.spline(fert, le, spar = s, all.knots = TRUE), newx))
)

# --- loess -----------------------------------------------------------------
lo <- list()
for (deg in 0:2) for (fam in c("gaussian", "symmetric")) for (sp in c(0.3, 0.75)) {
  f1 <- loess(y ~ x, data = sim, span = sp, degree = deg, family = fam,
              control = loess.control(surface = "direct"))
  f2 <- loess(y ~ x1 + x2, data = sim2, span = sp, degree = deg, family = fam,
              control = loess.control(surface = "direct"))
  nm <- sprintf("deg%d_%s_span%g", deg, fam, sp)
  lo[[nm]] <- list(degree = deg, family = fam, span = sp,
                   fitted_1d = unname(fitted(f1)),
                   pred_1d = unname(predict(f1, data.frame(x = c(0.5, 3.3, 9.1)))),
                   fitted_2d = unname(fitted(f2)),
                   pred_2d = unname(predict(f2, data.frame(x1 = c(-1, 0, 1.5), x2 = c(5, 25, 40)))),
                   enp_1d = f1$enp, enp_2d = f2$enp)
}
f3 <- loess(y ~ x, data = sim, span = 0.75, degree = 2, weights = w,
            control = loess.control(surface = "direct"))
lo$weighted <- list(fitted_1d = unname(fitted(f3)))
f4 <- loess(y ~ x, data = sim, span = 1.5, degree = 1, control = loess.control(surface = "direct"))
lo$span_gt1 <- list(fitted_1d = unname(fitted(f4)))

out <- list(r_version = R.version.string,
            generated_by = "make_splines_reference.R",
            bases = bases, lm_fits = fits, smooth_spline = ss, loess = lo)
writeLines(to_json(out), "splines_reference.json")
