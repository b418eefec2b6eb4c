# Reference trees from R's rpart with missing values (surrogate splits) and categorical predictors.
#
# Run from this directory:
#
#     cd tests/reference/rpart && Rscript make_rpart_missing_reference.R
#
# Requires R with rpart, dslabs, MASS and jsonlite (Debian: r-cran-rpart, r-cran-dslabs,
# r-cran-mass, r-cran-jsonlite).
#
# Produces, in the current directory:
#   gapminder2011_missing.csv  dslabs::gapminder in 2011 (the 166 complete-case countries of
#                      gapminder2011.csv, same order) with infant_mortality, fertility,
#                      log10(population), continent, life_expectancy and le_class
#                      (life_expectancy > 72.45: "high"/"low"); infant_mortality is set to NA
#                      on rows i %% 7 == 0, fertility on rows i %% 5 == 1 and log_population on
#                      rows i %% 11 == 3 (i = 1..166); doubles with 17 significant digits.
#   biopsy.csv         MASS::biopsy without ID (V6, bare nuclei, has 16 real NAs).
#   iris_cut.csv       iris with pl_cut = cut(Petal.Length, 5) (a 5-level factor).
#   rpart_missing_reference.json  for each case: the printed tree, the frame (var, n, wt,
#                      dev, yval, class probabilities), the splits (primary and surrogate rows:
#                      variable, count, ncat = direction, improve = agreement for surrogates,
#                      index = threshold, adj), the left/right level codes of categorical splits
#                      (csplit rows: 1 = left, 3 = right, 2 = absent), predict() on the data, and
#                      R and package versions.
#
# Every fit uses rpart's defaults usesurrogate = 2, surrogatestyle = 0, maxsurrogate = 5, with
# maxcompete = 0 (competitor splits do not change the tree) and xval = 0.
suppressPackageStartupMessages({
  library(rpart)
  library(dslabs)
  library(MASS)
  library(jsonlite)
})

gm <- dslabs::gapminder
gm <- gm[complete.cases(gm), ]
gm <- gm[gm$year == 2011, ]
d <- data.frame(infant_mortality = gm$infant_mortality, fertility = gm$fertility,
                log_population = log10(gm$population), continent = gm$continent,
                life_expectancy = gm$life_expectancy)
stopifnot(nrow(d) == 166)
i <- seq_len(nrow(d))
d$infant_mortality[i %% 7 == 0] <- NA
d$fertility[i %% 5 == 1] <- NA
d$log_population[i %% 11 == 3] <- NA
d$le_class <- ifelse(d$life_expectancy > 72.45, "high", "low")
write.csv(format(d, digits = 17), "gapminder2011_missing.csv", row.names = FALSE, quote = FALSE,
          na = "NA")
d <- read.csv("gapminder2011_missing.csv", stringsAsFactors = TRUE, na.strings = c("NA", " NA"),
              strip.white = TRUE)
d$continent <- factor(d$continent, levels = levels(gm$continent))

bp <- MASS::biopsy[, -1]
write.csv(bp, "biopsy.csv", row.names = FALSE, quote = FALSE, na = "NA")
bp <- read.csv("biopsy.csv", stringsAsFactors = TRUE)

ir <- read.csv("iris.csv", stringsAsFactors = TRUE)
ir$pl_cut <- cut(ir$Petal.Length, 5)
write.csv(format(ir, digits = 17), "iris_cut.csv", row.names = FALSE, quote = 6)

defaults <- rpart.control(minsplit = 20, minbucket = 7, cp = 0.01, xval = 0, maxcompete = 0)
big <- rpart.control(minsplit = 10, minbucket = 3, cp = 0, xval = 0, maxcompete = 0)
# biopsy's integer scores tie exactly deeper down (V2 < 3.5 and V8 < 3.5 split node 116 the
# same way, and rpart's choice there is decided by rounding): stop at depth 5
big_depth5 <- rpart.control(minsplit = 10, minbucket = 3, cp = 0, xval = 0, maxcompete = 0,
                            maxdepth = 5)

describe <- function(fit, newdata) {
  fr <- fit$frame
  out <- list(
    printed = capture.output(print(fit)),
    node = as.integer(rownames(fr)),
    var = as.character(fr$var),
    n = fr$n,
    wt = fr$wt,
    dev = fr$dev,
    yval = fr$yval,
    nsurrogate = fr$nsurrogate
  )
  if (!is.null(fit$splits) && nrow(fit$splits) > 0) {
    sp <- fit$splits
    out$split_var <- rownames(sp)
    out$split_count <- unname(sp[, "count"])
    out$split_ncat <- unname(sp[, "ncat"])
    out$split_improve <- unname(sp[, "improve"])
    out$split_index <- unname(sp[, "index"])
    out$split_adj <- unname(sp[, "adj"])
  }
  if (!is.null(fit$csplit)) out$csplit <- unname(fit$csplit)
  if (fit$method == "class") {
    yv <- fr$yval2
    k <- length(attr(fit, "ylevels"))
    out$yprob <- unname(yv[, (k + 2):(2 * k + 1)])
    out$ylevels <- attr(fit, "ylevels")
    out$predict <- unname(predict(fit, newdata, type = "prob"))
  } else {
    out$predict <- unname(predict(fit, newdata))
  }
  out
}

gm_formula_x <- "infant_mortality + fertility + log_population"
ref <- list(
  R_version = R.version.string,
  rpart_version = as.character(packageVersion("rpart")),
  dslabs_version = as.character(packageVersion("dslabs")),
  MASS_version = as.character(packageVersion("MASS")),
  gm_missing_regression = describe(rpart(
    as.formula(paste("life_expectancy ~", gm_formula_x)), data = d, control = defaults), d),
  gm_missing_regression_big = describe(rpart(
    as.formula(paste("life_expectancy ~", gm_formula_x)), data = d, control = big), d),
  gm_missing_classification = describe(rpart(
    as.formula(paste("le_class ~", gm_formula_x)), data = d, method = "class",
    control = defaults), d),
  gm_missing_classification_big = describe(rpart(
    as.formula(paste("le_class ~", gm_formula_x)), data = d, method = "class",
    control = big), d),
  biopsy = describe(rpart(class ~ ., data = bp, method = "class", control = defaults), bp),
  biopsy_big = describe(rpart(class ~ ., data = bp, method = "class",
                              control = big_depth5), bp),
  gm_categorical_regression = describe(rpart(
    life_expectancy ~ continent + fertility, data = d, control = big), d),
  gm_categorical_classification = describe(rpart(
    le_class ~ continent + fertility, data = d, method = "class", control = big), d),
  iris_categorical = describe(rpart(
    Species ~ Sepal.Length + Sepal.Width + pl_cut, data = ir, method = "class",
    control = big), ir)
)
writeLines(toJSON(ref, digits = I(17), auto_unbox = TRUE, pretty = TRUE, na = "null"),
           "rpart_missing_reference.json")
