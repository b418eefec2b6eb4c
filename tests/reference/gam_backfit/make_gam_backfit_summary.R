# Reference numbers for summary() of the backfitted GAM estimators: R gam's
# summary(gam::gam) tables ("Anova for Parametric Effects", "Anova for Nonparametric
# Effects"), AIC, dispersion and residual degrees of freedom, on data_gam.csv.
#
# Run from this directory:
#
#     cd tests/reference/gam_backfit && Rscript make_gam_backfit_summary.R
#
# Requires R with the package gam (1.22-1 was used). Writes gam_backfit_summary.json.

options(useFancyQuotes = FALSE, width = 80, warn = 1)
suppressPackageStartupMessages(library(gam))
source("../json_writer.R")

d <- read.csv("data_gam.csv")
d$fac <- factor(d$f)
ctl <- gam.control(epsilon = 1e-7, bf.epsilon = 1e-7, maxit = 30, bf.maxit = 30)
fits <- list(
  gaussian_two = gam(y ~ s(x1, 4) + s(x2, 5) + fac, data = d, control = ctl),
  binomial = gam(yb ~ s(x1, 4) + x2, family = binomial, data = d, control = ctl),
  poisson = gam(yc ~ s(x1, 4) + s(x2, 3), family = poisson, data = d, control = ctl),
  loess = gam(y ~ lo(x1, span = 0.5) + x2, data = d, control = ctl)
)
cases <- lapply(fits, function(fit) {
  s <- summary(fit)
  pa <- s$parametric.anova
  na <- s$anova
  sm <- !is.na(na[[1]])
  list(
    aic = fit$aic,
    dispersion = unname(s$dispersion),
    df_residual = fit$df.residual,
    param_df = pa$Df,
    param_ss = pa[["Sum Sq"]],
    param_f = pa[["F value"]][-nrow(pa)],
    param_p = pa[["Pr(>F)"]][-nrow(pa)],
    npar_df = fit$nl.df,
    npar_stat = na[[2]][sm],
    npar_p = na[[3]][sm]
  )
})
out <- list(r_version = R.version.string,
            gam_version = as.character(packageVersion("gam")),
            cases = cases)
writeLines(to_json(out), "gam_backfit_summary.json")
