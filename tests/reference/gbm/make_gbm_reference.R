# Reference training predictions of R's gbm (distribution = "gaussian") for
# statlearning.ensemble.GradientBoostingRegressor (stumps, no subsampling).
# Run from this directory:  Rscript make_gbm_reference.R
# Writes gbm_data.csv (the input, 17 significant digits) and gbm_reference.json.
library(gbm)
source("../json_writer.R")

set.seed(20261126)
n <- 200
x1 <- round(runif(n, -2, 2), 3)
x2 <- round(rnorm(n), 3)
x3 <- round(runif(n), 3)
y <- x1 + sin(2 * x2) + 0.5 * rnorm(n)
d <- data.frame(x1 = x1, x2 = x2, x3 = x3, y = y)
write.csv(format(d, digits = 17), "gbm_data.csv", row.names = FALSE, quote = FALSE)
d <- read.csv("gbm_data.csv")  # use exactly the doubles Python reads

cases <- list()
for (shrinkage in c(0.1, 0.5)) {
  set.seed(1)
  fit <- gbm(y ~ x1 + x2 + x3, data = d, distribution = "gaussian", n.trees = 50,
             interaction.depth = 1, shrinkage = shrinkage, bag.fraction = 1,
             n.minobsinnode = 1, train.fraction = 1, keep.data = FALSE)
  cases[[length(cases) + 1]] <- list(
    shrinkage = shrinkage,
    n_trees = 50L,
    init = fit$initF,
    fitted = fit$fit,
    train_error = fit$train.error
  )
}
out <- list(
  r_version = R.version.string,
  gbm_version = as.character(packageVersion("gbm")),
  cases = cases
)
writeLines(to_json(out), "gbm_reference.json")
