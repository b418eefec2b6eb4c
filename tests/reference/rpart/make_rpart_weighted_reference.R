# Weighted reference trees from R's rpart: case weights in the split criterion, observation
# counts in minsplit / minbucket.
#
# Run from this directory (after make_rpart_reference.R, which writes gapminder2011.csv):
#
#     cd tests/reference/rpart && Rscript make_rpart_weighted_reference.R
#
# Requires R with rpart and jsonlite. Produces rpart_weighted_reference.json with, for each
# case, the weights, the frame (node ids, var, n, wt, dev, yval, yprob for classification),
# the primary splits (variable, index = threshold) and the cp table, plus R and rpart versions.
#
# Cases (minsplit = 20, minbucket = 7, cp = 0.01, xval = 0 unless said):
#   regression_weighted      life_expectancy ~ infant_mortality + fertility, weights
#                            w_i = 1 + ((i - 1) %% 5) / 2 (1, 1.5, ..., 3)
#   regression_scaled        the same weights divided by 200: the same tree (rpart's minsplit
#                            and minbucket count observations, not weight)
#   regression_integer       weights 1 + ((i - 1) %% 3), minsplit = 60, minbucket = 20
#   regression_repeated      the rows of regression_integer repeated w_i times, unweighted:
#                            a different (larger) tree, since the repeated rows are more
#                            observations
#   regression_zero          regression_weighted's weights with every 4th row weighing 0
#   classification_weighted  le_class ~ infant_mortality + fertility with the weights of
#                            regression_weighted
suppressPackageStartupMessages({
  library(rpart)
  library(jsonlite)
})

d <- read.csv("gapminder2011.csv", stringsAsFactors = TRUE)
stopifnot(nrow(d) == 166)
n <- nrow(d)
i <- seq_len(n)
w_frac <- 1 + ((i - 1) %% 5) / 2
w_int <- 1 + ((i - 1) %% 3)
w_zero <- w_frac
w_zero[i %% 4 == 0] <- 0

ctrl <- rpart.control(minsplit = 20, minbucket = 7, cp = 0.01, xval = 0)
ctrl_int <- rpart.control(minsplit = 60, minbucket = 20, cp = 0.01, xval = 0)

describe <- function(fit, w) {
  fr <- fit$frame
  out <- list(
    weights = w,
    node = as.integer(rownames(fr)),
    var = as.character(fr$var),
    n = fr$n,
    wt = fr$wt,
    dev = fr$dev,
    yval = fr$yval
  )
  if (!is.null(fit$splits) && nrow(fit$splits) > 0) {
    sp <- fit$splits
    out$split_var <- rownames(sp)
    out$split_index <- unname(sp[, "index"])
    out$split_count <- unname(sp[, "count"])
    out$split_adj <- unname(sp[, "adj"])
  }
  if (fit$method == "class") {
    yv <- fr$yval2
    k <- length(attr(fit, "ylevels"))
    out$yprob <- unname(yv[, (k + 2):(2 * k + 1)])
    out$ylevels <- attr(fit, "ylevels")
  }
  out$cptable <- unname(fit$cptable[, c("CP", "nsplit", "rel error")])
  out
}

f <- life_expectancy ~ infant_mortality + fertility
rep_rows <- d[rep(i, w_int), ]
ref <- list(
  R_version = R.version.string,
  rpart_version = as.character(packageVersion("rpart")),
  regression_weighted = describe(rpart(f, data = d, weights = w_frac, method = "anova",
                                       control = ctrl), w_frac),
  regression_scaled = describe(rpart(f, data = d, weights = w_frac / 200, method = "anova",
                                     control = ctrl), w_frac / 200),
  regression_integer = describe(rpart(f, data = d, weights = w_int, method = "anova",
                                      control = ctrl_int), w_int),
  regression_repeated = describe(rpart(f, data = rep_rows, method = "anova",
                                       control = ctrl_int), rep(1, nrow(rep_rows))),
  regression_zero = describe(rpart(f, data = d, weights = w_zero, method = "anova",
                                   control = ctrl), w_zero),
  classification_weighted = describe(rpart(le_class ~ infant_mortality + fertility, data = d,
                                           weights = w_frac, method = "class", control = ctrl),
                                     w_frac)
)
writeLines(toJSON(ref, digits = I(17), auto_unbox = TRUE, pretty = TRUE),
           "rpart_weighted_reference.json")
