/** Client quotas on the broker: Kafka's quota resolution, windowed rates and throttle times (KIP-13, KIP-55, KIP-219). */
package io.kraft.broker.quota;
