/**
 * Declarations of every served API's request and response bodies, written from the protocol
 * guide's per-version BNF and the KIPs, and registered in
 * {@link io.kraft.broker.protocol.messages.ApiMessages}. Field names are the guide's (snake_case).
 * Adding a version is a matter of declarations here, not code.
 */
package io.kraft.broker.protocol.messages;
