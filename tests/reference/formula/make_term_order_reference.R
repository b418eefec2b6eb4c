# Coefficient names and values of R's lm for formulas whose terms leave out margins or name
# their variables out of order, for tests/formula/test_term_order.py.
#
#     cd tests/reference/formula && Rscript make_term_order_reference.R
#
# Writes terms.csv (the data: three-decimal values, exact in the file) and
# term_order_coefficients.csv (formula, R's coefficient name, estimate with 17 digits).
# R names the variables of an interaction in their order of first appearance in the formula
# (y ~ g + x:g has the term g:x) and codes a factor by all its levels when the term without it
# is not in the model (y ~ x:g, y ~ 0 + g; y ~ g:h has an aliased coefficient, NA).

set.seed(1)
n <- 30
d <- data.frame(x = round(rnorm(n), 3), z = round(rnorm(n), 3),
                g = factor(sample(c("a", "b", "c"), n, TRUE)),
                h = factor(sample(c("u", "v"), n, TRUE)))
d$y <- round(1 + d$x + as.integer(d$g) * d$x + rnorm(n), 3)
write.csv(d, "terms.csv", row.names = FALSE)
d <- read.csv("terms.csv", stringsAsFactors = TRUE)

formulas <- c("y ~ x:g", "y ~ x + x:g", "y ~ g + x:g", "y ~ 0 + g", "y ~ 0 + g + x",
              "y ~ 0 + x:g", "y ~ x + g:x", "y ~ h + g:h + x:g", "y ~ x:h:g", "y ~ 0 + g:h",
              "y ~ g:x:h + h", "y ~ x:z + g", "y ~ g:h", "y ~ x + g:h", "y ~ 0 + g + h",
              "y ~ 0 + x + g", "y ~ g*h - g", "y ~ 0 + x:g + g")
rows <- do.call(rbind, lapply(formulas, function(f) {
  b <- coef(lm(as.formula(f), data = d))
  data.frame(formula = f, name = names(b), estimate = sprintf("%.17g", b))
}))
write.csv(rows, "term_order_coefficients.csv", row.names = FALSE)
