# Reference cp tables (CP, nsplit, rel error, xerror, xstd) from R's rpart for the cp-table and
# cross-validation tests of DecisionTreeRegressor / DecisionTreeClassifier (seed 004, E30).
#
# Run from this directory, after make_rpart_reference.R (which writes gapminder2011.csv):
#
#     cd tests/reference/rpart && Rscript make_rpart_cptable_reference.R
#
# Requires R with rpart (Debian: r-cran-rpart).
#
# Produces, in the current directory:
#   rpart_cptable_folds.csv   the fold id of each of the 166 rows of gapminder2011.csv
#                             (rep(1:10, length.out = 166), given to rpart as xval so that the
#                             xerror and xstd columns are deterministic).
#   rpart_cptable_<case>.csv  fit$cptable with doubles written as %.17g.
#   rpart_cptable_versions.txt  R.version.string and the rpart version.
#
# Cases (minsplit = 20, minbucket = 7, cp = 0.001, xval = the fold ids):
#   regression      life_expectancy ~ infant_mortality + fertility  (E29/E30)
#   classification  le_class ~ infant_mortality + fertility         (E31)
suppressPackageStartupMessages(library(rpart))

d <- read.csv("gapminder2011.csv", stringsAsFactors = TRUE)
folds <- rep(1:10, length.out = nrow(d))
write.csv(data.frame(fold = folds), "rpart_cptable_folds.csv", row.names = FALSE, quote = FALSE)

ctrl <- rpart.control(minsplit = 20, minbucket = 7, cp = 0.001, xval = folds)
fits <- list(
  regression = rpart(life_expectancy ~ infant_mortality + fertility, data = d,
                     method = "anova", control = ctrl),
  classification = rpart(le_class ~ infant_mortality + fertility, data = d,
                         method = "class", control = ctrl)
)
for (case in names(fits)) {
  tab <- fits[[case]]$cptable
  out <- c("CP,nsplit,rel_error,xerror,xstd",
           apply(tab, 1, function(r) paste(sprintf("%.17g", r), collapse = ",")))
  writeLines(out, sprintf("rpart_cptable_%s.csv", case))
}
writeLines(c(R.version.string, paste("rpart", as.character(packageVersion("rpart")))),
           "rpart_cptable_versions.txt")
