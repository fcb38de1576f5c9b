/**
 * The broker's life with the controller: {@link io.kraft.broker.lifecycle.BrokerLifecycle} registers the broker,
 * heartbeats, waits to be unfenced and, at shutdown, runs the controlled shutdown that moves leadership away first.
 */
package io.kraft.broker.lifecycle;
