/**
 * Rules every kind shares, beyond the schema: object identity (kind and name of any document), job
 * names against DNS limits, and names jobc reserves in pod templates. Pure; returns findings, never
 * throws for bad input. Each kind's own rules live in its package.
 */
package dev.jobc.validate;
