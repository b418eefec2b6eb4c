# Surrogate splits of trees grown on COMPLETE data (rpart computes them whether or not the
# training data have missing values), and rpart's predictions for rows with missing values.
#
# Run from this directory (after make_rpart_reference.R, which writes gapminder2011.csv):
#
#     cd tests/reference/rpart && Rscript make_rpart_complete_surrogate_reference.R
#
# Requires R with rpart and jsonlite (Debian: r-cran-rpart, r-cran-jsonlite).
#
# Produces rpart_complete_surrogates.json: for the seed 004 E29 regression tree and the E31
# classification tree (rpart defaults minsplit = 20, minbucket = 7, cp = 0.01), the splits
# table (primary and surrogate rows: variable, index = threshold, ncat = direction, adj) and
# predict() on query rows of the training data with infant_mortality, fertility or both set
# to NA (every 5th row with infant_mortality NA, every 7th with fertility NA).
suppressPackageStartupMessages({
  library(rpart)
  library(jsonlite)
})
source("../json_writer.R")

d <- read.csv("gapminder2011.csv", stringsAsFactors = TRUE)
stopifnot(nrow(d) == 166)
ctrl <- rpart.control(minsplit = 20, minbucket = 7, cp = 0.01, xval = 0)

q <- d
q$infant_mortality[seq(1, nrow(q), by = 5)] <- NA
q$fertility[seq(1, nrow(q), by = 7)] <- NA

splits_of <- function(fit) {
  sp <- fit$splits
  list(variable = I(rownames(sp)), index = I(unname(sp[, "index"])),
       ncat = I(unname(sp[, "ncat"])), adj = I(unname(sp[, "adj"])),
       count = I(unname(sp[, "count"])))
}

reg <- rpart(life_expectancy ~ infant_mortality + fertility, data = d, control = ctrl)
cls <- rpart(le_class ~ infant_mortality + fertility, data = d, control = ctrl)
out <- list(
  R_version = R.version.string,
  rpart_version = as.character(packageVersion("rpart")),
  regression = list(splits = splits_of(reg), predict = I(unname(predict(reg, newdata = q)))),
  classification = list(splits = splits_of(cls),
                        prob_high = I(unname(predict(cls, newdata = q)[, "high"])))
)
writeLines(to_json(out), "rpart_complete_surrogates.json")
