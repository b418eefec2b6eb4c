# Reference values for statlearning.ensemble.RandomForest* from R's randomForest.
#
# Run from this directory:  Rscript make_rf_reference.R
#
# Data written here (17 significant digits, so Python reads the same doubles):
#   biopsy.csv      MASS::biopsy complete cases (683 rows): V1..V9 and class (benign/malignant)
#   gapminder.csv   dslabs::gapminder, year 2011, complete cases of infant_mortality, fertility,
#                   gdp, population and life_expectancy (166 countries); columns
#                   infant_mortality, fertility, log_gdppc = log(gdp / population),
#                   life_expectancy
# Forests, each refitted with set.seed(seed) for seed = 1..20:
#   classification  randomForest(class ~ V1..V9, data = biopsy, ntree = 500, importance = TRUE)
#                   (default mtry = floor(sqrt(9)) = 3, nodesize = 1)
#   regression      randomForest(life_expectancy ~ ., data = gapminder, ntree = 500,
#                   importance = TRUE)  (default mtry = max(floor(3/3), 1) = 1, nodesize = 5)
# Output rf_reference.csv, one row per (model, seed, variable):
#   oob_error   final OOB misclassification rate err.rate[500, "OOB"] or OOB MSE mse[500]
#   imp         importance(fit, type = 1, scale = FALSE)  (mean decrease in accuracy / %IncMSE
#               unscaled, i.e. the mean over trees of the per-tree OOB error increase)
#   imp_sd      fit$importanceSD for that column
#   mdi         MeanDecreaseGini / IncNodePurity
# and rf_versions.txt with R.version.string and the package versions.
library(randomForest)
library(MASS)

fmt <- function(x) sprintf("%.17g", x)

b <- biopsy[complete.cases(biopsy), c(paste0("V", 1:9), "class")]
rownames(b) <- NULL
bw <- b
for (v in paste0("V", 1:9)) bw[[v]] <- fmt(as.numeric(b[[v]]))
write.csv(bw, "biopsy.csv", row.names = FALSE, quote = FALSE)
b <- read.csv("biopsy.csv", stringsAsFactors = TRUE)

gm <- dslabs::gapminder
gm <- gm[gm$year == 2011, c("infant_mortality", "fertility", "gdp", "population",
                             "life_expectancy")]
gm <- gm[complete.cases(gm), ]
g <- data.frame(infant_mortality = gm$infant_mortality, fertility = gm$fertility,
                log_gdppc = log(gm$gdp / gm$population), life_expectancy = gm$life_expectancy)
gw <- g
for (v in names(g)) gw[[v]] <- fmt(g[[v]])
write.csv(gw, "gapminder.csv", row.names = FALSE, quote = FALSE)
g <- read.csv("gapminder.csv")

rows <- list()
for (seed in 1:20) {
  set.seed(seed)
  fc <- randomForest(class ~ ., data = b, ntree = 500, importance = TRUE)
  imp <- importance(fc, type = 1, scale = FALSE)[, 1]
  sd <- fc$importanceSD[, "MeanDecreaseAccuracy"]
  mdi <- fc$importance[, "MeanDecreaseGini"]
  rows[[length(rows) + 1]] <- data.frame(
    model = "classification", seed = seed, variable = names(imp),
    oob_error = fmt(fc$err.rate[500, "OOB"]), imp = fmt(imp), imp_sd = fmt(sd),
    mdi = fmt(mdi))
  set.seed(seed)
  fr <- randomForest(life_expectancy ~ ., data = g, ntree = 500, importance = TRUE)
  imp <- importance(fr, type = 1, scale = FALSE)[, 1]
  rows[[length(rows) + 1]] <- data.frame(
    model = "regression", seed = seed, variable = names(imp),
    oob_error = fmt(fr$mse[500]), imp = fmt(imp), imp_sd = fmt(fr$importanceSD),
    mdi = fmt(fr$importance[, "IncNodePurity"]))
}
out <- do.call(rbind, rows)
write.csv(out, "rf_reference.csv", row.names = FALSE, quote = FALSE)
writeLines(c(R.version.string,
             paste("randomForest", packageVersion("randomForest")),
             paste("MASS", packageVersion("MASS")),
             paste("dslabs", packageVersion("dslabs")),
             paste("mtry classification", fc$mtry, "regression", fr$mtry)),
           "rf_versions.txt")
