# Reference leverages, standardised residuals and Cook's distances from R's lm for
# statlearning.inference.influence_measures.
# Run from this directory:  Rscript make_influence_reference.R
# Reads ../lm/mtcars.csv and ../lm/rank_deficient.csv; writes influence_reference.json.
source("../json_writer.R")

one <- function(d, formula) {
  fit <- lm(formula, data = d)
  list(
    formula = deparse(formula),
    residuals = I(unname(residuals(fit))),
    hat = I(unname(hatvalues(fit))),
    rstandard = I(unname(rstandard(fit))),
    cooks = I(unname(cooks.distance(fit))),
    sigma = summary(fit)$sigma,
    rank = fit$rank
  )
}

mt <- read.csv("../lm/mtcars.csv")
rd <- read.csv("../lm/rank_deficient.csv")
out <- list(
  r_version = R.version.string,
  mtcars = one(mt, mpg ~ wt + hp + qsec + drat),
  mtcars_no_intercept = one(mt, mpg ~ wt + hp - 1),
  rank_deficient = one(rd, mpg ~ wt + hp + wt2 + disp + hp_plus_wt)
)
writeLines(to_json(out), "influence_reference.json")
