# Reference trees from R's rpart for the DecisionTreeRegressor / DecisionTreeClassifier tests.
#
# Run from this directory:
#
#     cd tests/reference/rpart && Rscript make_rpart_reference.R
#
# Requires R with rpart, dslabs and jsonlite (Debian: r-cran-rpart, r-cran-dslabs,
# r-cran-jsonlite).
#
# Produces, in the current directory:
#   gapminder2011.csv  infant_mortality, fertility, life_expectancy and the class
#                      (life_expectancy > 72.45, the 2011 median: "high"/"low") of the 166
#                      complete-case countries of dslabs::gapminder in 2011 (seed 004, E29/E31);
#                      doubles written with 17 significant digits and read back, so that R and
#                      Python fit the same numbers.
#   iris.csv           the iris measurements and species.
#   rpart_reference.json  for each case: the printed tree (capture.output(print(fit))) and the
#                      frame (node ids, var, n, wt, dev, yval, yprob for classification) and the
#                      splits (variable, index = threshold, direction), plus R and rpart versions.
#
# Cases (rpart defaults minsplit = 20, minbucket = 7, cp = 0.01, xval = 0):
#   gapminder_regression      life_expectancy ~ infant_mortality + fertility  (E29)
#   gapminder_classification  le_class ~ infant_mortality + fertility         (E31)
#   iris_classification       Species ~ .
suppressPackageStartupMessages({
  library(rpart)
  library(dslabs)
  library(jsonlite)
})

gm <- dslabs::gapminder
gm <- gm[complete.cases(gm), ]
gm <- gm[gm$year == 2011, ]
d <- data.frame(infant_mortality = gm$infant_mortality, fertility = gm$fertility,
                life_expectancy = gm$life_expectancy)
d$le_class <- ifelse(d$life_expectancy > 72.45, "high", "low")
write.csv(format(d, digits = 17), "gapminder2011.csv", row.names = FALSE, quote = FALSE)
d <- read.csv("gapminder2011.csv", stringsAsFactors = TRUE)
stopifnot(nrow(d) == 166)

ir <- iris
write.csv(format(ir, digits = 17), "iris.csv", row.names = FALSE, quote = FALSE)
ir <- read.csv("iris.csv", stringsAsFactors = TRUE)

ctrl <- rpart.control(minsplit = 20, minbucket = 7, cp = 0.01, xval = 0)

describe <- function(fit) {
  fr <- fit$frame
  out <- list(
    printed = capture.output(print(fit)),
    node = as.integer(rownames(fr)),
    var = as.character(fr$var),
    n = fr$n,
    wt = fr$wt,
    dev = fr$dev,
    yval = fr$yval,
    complexity = fr$complexity
  )
  if (!is.null(fit$splits) && nrow(fit$splits) > 0) {
    sp <- fit$splits
    prim <- sp[sp[, "adj"] == 0 | is.na(sp[, "adj"]), , drop = FALSE]
    out$split_var <- rownames(sp)
    out$split_index <- unname(sp[, "index"])
    out$split_ncat <- unname(sp[, "ncat"])
    out$split_improve <- unname(sp[, "improve"])
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

ref <- list(
  R_version = R.version.string,
  rpart_version = as.character(packageVersion("rpart")),
  dslabs_version = as.character(packageVersion("dslabs")),
  gapminder_regression = describe(rpart(life_expectancy ~ infant_mortality + fertility,
                                        data = d, method = "anova", control = ctrl)),
  gapminder_classification = describe(rpart(le_class ~ infant_mortality + fertility,
                                            data = d, method = "class", control = ctrl)),
  iris_classification = describe(rpart(Species ~ ., data = ir, method = "class",
                                       control = ctrl))
)
writeLines(toJSON(ref, digits = I(17), auto_unbox = TRUE, pretty = TRUE),
           "rpart_reference.json")
