# Reference numbers for mgcv's thin plate regression spline basis (bs = "tp", Wood 2003)
# in statlearning.gam: the basis and penalty of smoothCon (no constraint absorbed) for
# s(x1, bs = "tp", k = 10) and k = 6 and s(x1, x2, bs = "tp", k = 12), fits with two tp smooths and the factor.
#
# Run from this directory:
#
#     cd tests/reference/gam && Rscript make_gam_tp_reference.R
#
# Requires R with mgcv. Uses sim.csv (written by make_gam_reference.R); writes
# gam_tp_reference.json.

options(warn = 1)
suppressPackageStartupMessages(library(mgcv))
source("../json_writer.R")

d <- read.csv("sim.csv")
d$f <- factor(d$f)
basis <- function(k) {
  sm <- smoothCon(s(x1, bs = "tp", k = k), data = d, absorb.cons = FALSE,
                  scale.penalty = FALSE)[[1]]
  list(k = k, X = rows_of(sm$X), S = rows_of(sm$S[[1]]), shift = unname(sm$shift),
       null_dim = sm$null.space.dim)
}
fit <- gam(y_gauss ~ s(x1, bs = "tp") + s(x2, bs = "tp") + f, data = d, method = "REML")
newd <- data.frame(x1 = c(0.05, 0.5, 0.93), x2 = c(0.2, 0.4, 0.8), f = factor(c("a", "b", "c")))
fitg <- gam(y_gauss ~ s(x1, bs = "tp", k = 6) + s(x2, bs = "tp") + f, data = d,
            method = "GCV.Cp")
fit2 <- gam(y_gauss ~ s(x1, x2, bs = "tp", k = 20) + f, data = d, method = "REML")
out <- list(
  mgcv_version = as.character(packageVersion("mgcv")),
  bases = list(k10 = basis(10), k6 = basis(6)),
  basis_2d = with(smoothCon(s(x1, x2, bs = "tp", k = 12), data = d, absorb.cons = FALSE,
                            scale.penalty = FALSE)[[1]],
                  list(k = 12, X = rows_of(X), S = rows_of(S[[1]]), shift = unname(shift),
                       null_dim = null.space.dim)),
  reml = list(fitted = unname(fitted(fit)), edf = unname(sapply(fit$smooth, function(s)
    sum(fit$edf[s$first.para:s$last.para]))), sp = unname(fit$sp),
    link_new = unname(predict(fit, newd))),
  reml_2d = list(fitted = unname(fitted(fit2)), edf = sum(fit2$edf[-(1:3)]), sp = unname(fit2$sp),
    link_new = unname(predict(fit2, newd))),
  gcv = list(fitted = unname(fitted(fitg)), edf = unname(sapply(fitg$smooth, function(s)
    sum(fitg$edf[s$first.para:s$last.para]))), sp = unname(fitg$sp))
)
writeLines(to_json(out), "gam_tp_reference.json")
