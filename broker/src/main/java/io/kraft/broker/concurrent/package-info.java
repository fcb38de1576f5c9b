/** Small helpers for the broker's own threads. */
package io.kraft.broker.concurrent;
