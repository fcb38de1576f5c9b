/**
 * The SASL APIs of a connection (SaslHandshake, SaslAuthenticate) and the SCRAM credential APIs of admin clients
 * (DescribeUserScramCredentials, AlterUserScramCredentials, KIP-554).
 */
package io.kraft.broker.api.auth;
