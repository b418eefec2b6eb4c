r"""A dense feed-forward network: parameters in one flat buffer, forward pass and backpropagation.

Layer :math:`l` maps :math:`a^{(l)}` (``n × u_l``) to :math:`a^{(l+1)} = g(a^{(l)} W^{(l)} +
b^{(l)})`; hidden layers share the activation ``g``, the output layer has its own (identity,
logistic or softmax). Every weight matrix and bias vector is a view into one C-contiguous vector
``theta`` (matrices first, layer by layer, then the biases: scikit-learn's packing for L-BFGS), and
the gradient fills a second vector ``grad`` of the same layout, so that a step rule or L-BFGS
updates all the parameters at once, without packing.

The objective of a batch with weights :math:`w_i` (ones by default) and :math:`S = \sum_i w_i` is

.. math:: R(\theta) = D(\theta) + \frac{\alpha}{2S} \sum_l \|W^{(l)}\|_F^2,

with the data term :math:`D` one of

* ``"squared_error"``: :math:`\frac{1}{2S} \sum_i w_i \sum_k (\hat y_{ik} - y_{ik})^2`;
* ``"sse"``: :math:`\sum_i w_i \sum_k (\hat y_{ik} - y_{ik})^2` (the notes' :math:`R(W)`);
* ``"log_loss"``: :math:`-\frac{1}{S} \sum_i w_i \sum_k y_{ik} \log \hat y_{ik}` for a softmax
  output, and the sum of the binary cross-entropies over the outputs for a logistic one.

Backpropagation computes :math:`\delta^{(L)} = S\,\partial R/\partial z^{(L)}` at the output
(the canonical pairs give :math:`w_i(\hat y_i - y_i)`), then :math:`\delta^{(l)} =
(\delta^{(l+1)} W^{(l+1)\top}) \odot g'(z^{(l)})`, and :math:`\nabla_{W^{(l)}} R = (a^{(l)\top}
\delta^{(l)} + \alpha W^{(l)}) / S`, :math:`\nabla_{b^{(l)}} R = \mathbf 1^\top \delta^{(l)} /
S`: scikit-learn's order of operations, so that both libraries round alike. Biases are not
penalised; with ``use_bias=False`` they stay zero and are skipped.
"""

from __future__ import annotations

import itertools

import numpy as np
from scipy.special import expit

from . import _kernels

__all__ = ["LOSSES", "Network", "forward_output", "glorot_init"]

LOSSES = ("squared_error", "sse", "log_loss")


def glorot_init(rng, layer_units, activation, dtype):
    """scikit-learn's Glorot-uniform initialisation, drawing from ``rng`` in its order.

    Per layer: the weights :math:`U(-r, r)^{u_l \\times u_{l+1}}`, then the biases
    :math:`U(-r, r)^{u_{l+1}}`, with :math:`r = \\sqrt{6 / (u_l + u_{l+1})}` (factor 2 instead
    of 6 for the logistic activation).
    """
    coefs, intercepts = [], []
    factor = 2.0 if activation == "logistic" else 6.0
    for fan_in, fan_out in itertools.pairwise(layer_units):
        bound = np.sqrt(factor / (fan_in + fan_out))
        coefs.append(rng.uniform(-bound, bound, (fan_in, fan_out)).astype(dtype, copy=False))
        intercepts.append(rng.uniform(-bound, bound, fan_out).astype(dtype, copy=False))
    return coefs, intercepts


def _hidden(name):
    if name == "relu":
        return lambda z: np.maximum(z, 0, out=z)
    if name == "tanh":
        return lambda z: np.tanh(z, out=z)
    if name == "logistic":
        return lambda z: expit(z, out=z)
    return lambda z: z


def _softmax(z):
    z -= z.max(axis=1)[:, None]
    np.exp(z, out=z)
    z /= z.sum(axis=1)[:, None]
    return z


_OUTPUT = {"identity": lambda z: z, "logistic": lambda z: expit(z, out=z), "softmax": _softmax}


def forward_output(X, coefs, intercepts, activation, out_activation, use_bias) -> np.ndarray:
    """The output layer of the network with weights ``coefs``/``intercepts`` for ``X``."""
    act, hidden, last = X, _hidden(activation), len(coefs) - 1
    for l, (W, b) in enumerate(zip(coefs, intercepts, strict=True)):
        act = act @ W
        if use_bias:
            act += b
        (_OUTPUT[out_activation] if l == last else hidden)(act)
    return act


class Network:
    """Parameters, buffers and the maths of one network.

    Parameters
    ----------
    layer_units : sequence of int
        ``[n_features, *hidden_layer_sizes, n_outputs]``.
    activation : {"relu", "tanh", "logistic", "identity"}
    out_activation : {"identity", "logistic", "softmax"}
    loss : {"squared_error", "sse", "log_loss"}
    alpha : float
        L2 penalty :math:`\\alpha`.
    use_bias : bool
    dtype : numpy dtype (float32 or float64)
    """

    def __init__(self, layer_units, activation, out_activation, loss, alpha, use_bias, dtype):
        self.layer_units = [int(u) for u in layer_units]
        self.activation = activation
        self.out_activation = out_activation
        self.loss = loss
        self.alpha = float(alpha)
        self.use_bias = bool(use_bias)
        self.dtype = np.dtype(dtype)
        pairs = list(zip(self.layer_units[:-1], self.layer_units[1:], strict=True))
        n_coef = sum(a * b for a, b in pairs)
        self.n_params = n_coef + sum(b for _, b in pairs)
        self.theta = np.zeros(self.n_params, dtype=self.dtype)
        self.grad = np.zeros(self.n_params, dtype=self.dtype)
        self.coefs, self.intercepts = self._views(self.theta, pairs, n_coef)
        self.coef_grads, self.intercept_grads = self._views(self.grad, pairs, n_coef)
        self.n_coef = n_coef
        self._act = _hidden(activation)
        self._batch = 0

    @staticmethod
    def _views(flat, pairs, n_coef):
        coefs, intercepts, start, bstart = [], [], 0, n_coef
        for a, b in pairs:
            coefs.append(flat[start : start + a * b].reshape(a, b))
            intercepts.append(flat[bstart : bstart + b])
            start += a * b
            bstart += b
        return coefs, intercepts

    def set_params(self, coefs, intercepts) -> None:
        """Copy weights (lists of arrays of the network's shapes) into ``theta``."""
        for dst, src in zip(self.coefs, coefs, strict=True):
            dst[...] = src
        for dst, src in zip(self.intercepts, intercepts, strict=True):
            dst[...] = src if self.use_bias else 0.0

    # -- buffers ---------------------------------------------------------------------------
    def _ensure_buffers(self, n: int) -> None:
        if n <= self._batch:
            return
        self._z = [np.empty((n, u), dtype=self.dtype) for u in self.layer_units[1:]]
        self._d = [np.empty((n, u), dtype=self.dtype) for u in self.layer_units[1:]]
        self._batch = n

    # -- forward ---------------------------------------------------------------------------
    def forward(self, X, *, out=None) -> list[np.ndarray]:
        """Activations of every layer (``[X, a¹, …, ŷ]``); buffers are reused between calls."""
        n = X.shape[0]
        if out is None:
            self._ensure_buffers(n)
            out = [z[:n] for z in self._z]
        acts = [X]
        last = len(self.coefs) - 1
        for l, (W, b) in enumerate(zip(self.coefs, self.intercepts, strict=True)):
            z = np.matmul(acts[-1], W, out=out[l])
            if self.use_bias:
                z += b
            if l == last:
                _OUTPUT[self.out_activation](z)
            else:
                self._act(z)
            acts.append(z)
        return acts

    # -- loss ------------------------------------------------------------------------------
    def data_loss(self, Y, P, sw, S) -> float:
        """The data term :math:`D` for targets ``Y`` and outputs ``P`` (weights ``sw``)."""
        if self.loss == "log_loss":
            eps = np.finfo(P.dtype).eps
            P = np.clip(P, eps, 1 - eps)
            if self.out_activation == "softmax":
                per_row = -(np.log(P, where=Y != 0, out=np.zeros_like(P)) * Y).sum(axis=1)
            else:
                per_row = -(Y * np.log(P) + (1 - Y) * np.log1p(-P)).sum(axis=1)
            total = per_row.sum() if sw is None else per_row @ sw
            return float(total) / S
        R = P - Y
        per_row = np.einsum("ij,ij->i", R, R)
        total = float(per_row.sum() if sw is None else per_row @ sw)
        return total if self.loss == "sse" else 0.5 * total / S

    def penalty(self, S) -> float:
        if self.alpha == 0.0:
            return 0.0
        w = self.theta[: self.n_coef]
        return 0.5 * self.alpha * float(w @ w) / S

    # -- backward --------------------------------------------------------------------------
    def _output_delta(self, P, Y, sw, S, delta) -> None:
        """``delta`` ← :math:`S\\,\\partial D/\\partial z^{(L)}`, in place."""
        np.subtract(P, Y, out=delta)
        if self.loss == "log_loss" or self.out_activation == "identity":
            # canonical pairs (softmax/logistic with cross-entropy, identity with squares)
            if self.loss == "sse":
                delta *= 2.0 * S
        else:
            if self.loss == "sse":
                delta *= 2.0 * S
            if self.out_activation == "logistic":
                delta *= P
                delta *= 1 - P
            else:  # softmax Jacobian: p ⊙ (d − Σ_k d_k p_k)
                inner = np.einsum("ij,ij->i", delta, P)
                delta -= inner[:, None]
                delta *= P
        if sw is not None:
            delta *= sw[:, None]

    def loss_grad(self, X, Y, sw=None) -> float:
        """The objective on the batch ``(X, Y, sw)``; its gradient is left in ``grad``."""
        n = X.shape[0]
        S = float(n if sw is None else sw.sum())
        acts = self.forward(X)
        P = acts[-1]
        loss = self.data_loss(Y, P, sw, S) + self.penalty(S)
        deltas = [d[:n] for d in self._d]
        last = len(self.coefs) - 1
        self._output_delta(P, Y, sw, S, deltas[last])
        for l in range(last, -1, -1):
            delta = deltas[l]
            gW = self.coef_grads[l]
            np.matmul(acts[l].T, delta, out=gW)
            if self.alpha:
                gW += self.alpha * self.coefs[l]
            gW /= S
            if self.use_bias:
                np.sum(delta, axis=0, out=self.intercept_grads[l])
                self.intercept_grads[l] /= S
            if l > 0:
                prev = np.matmul(delta, self.coefs[l].T, out=deltas[l - 1])
                _kernels.hidden_derivative(self.activation, acts[l], prev)
        return loss
