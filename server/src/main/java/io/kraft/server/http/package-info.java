/** The node's HTTP endpoint ({@code http.listener}): Prometheus metrics and the liveness and readiness checks. */
package io.kraft.server.http;
