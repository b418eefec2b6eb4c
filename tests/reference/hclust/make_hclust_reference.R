# Reference merge trees from R's stats::hclust for tests/cluster/test_agglomerative.py.
# Run from this directory: Rscript make_hclust_reference.R
# Writes hclust_data.csv (the input, 17 significant digits) and hclust_reference.json.
# single/complete/average/mcquitty/ward.D2 use dist(X); centroid/median use dist(X)^2, as R's
# documentation requires (their heights are then squared Euclidean distances).
set.seed(20240607)
X <- cbind(round(rnorm(15, sd = 2), 3), round(rnorm(15, sd = 2), 3), round(rnorm(15), 3))
colnames(X) <- c("x1", "x2", "x3")
write.csv(format(as.data.frame(X), digits = 17), "hclust_data.csv", row.names = FALSE,
          quote = FALSE)
d <- dist(X)
methods <- c("single", "complete", "average", "mcquitty", "ward.D2", "centroid", "median")
cases <- list()
for (m in methods) {
  dd <- if (m %in% c("centroid", "median")) d^2 else d
  h <- hclust(dd, method = m)
  cases[[m]] <- list(merge = unname(h$merge), height = sprintf("%.17g", h$height),
                     order = h$order)
}
out <- list(
  r_version = R.version.string,
  packages = list(stats = as.character(packageVersion("stats")),
                  jsonlite = as.character(packageVersion("jsonlite"))),
  distances = c(single = "dist", complete = "dist", average = "dist", mcquitty = "dist",
                ward.D2 = "dist", centroid = "dist^2", median = "dist^2"),
  cases = cases
)
writeLines(jsonlite::toJSON(out, auto_unbox = TRUE, pretty = TRUE, digits = NA),
           "hclust_reference.json")
