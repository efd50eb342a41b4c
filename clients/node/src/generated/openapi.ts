// Generated from openapi.json by `npm run openapi` (openapi-typescript). Do not edit.

export interface paths {
    "/company": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the company
         * @description The company the API key belongs to.
         */
        get: operations["getCompany"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/company/balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the balance
         * @description Every currency, zero when never held. `available`: spendable now; `pending`: deposits seen on chain, not yet confirmed; `locked`: held for withdrawals in flight. Every change is a ledger entry written in the same transaction.
         */
        get: operations["getBalance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/deposits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a deposit
         * @description An address on `network` for this deposit only: on `tron` derived from the service xpub, on `ethereum`, `bsc`, `polygon` and `arbitrum` the CREATE2 address of a forwarder computed from the deposit (nothing is deployed until it is paid), on `solana` a wallet of its own (pay it as any Solana wallet: the payer's wallet sends the USDT to its token account, creating that account when it has none). A network the stage does not open → 400 `VALIDATION_FAILED` on `network`. Whatever arrives is credited once its block is final on that network (`requiredConfirmations`: 19 on TRON; on Solana, `finalized` commitment); a transfer a reorganisation removes first is never credited, and `deposit.transfer_reversed` says so. `awaiting_payment` → `confirming` → `completed`; `expired` after 24 h without funds (late funds are still credited). `held` (with `holdReason`, event `deposit.held`): the funds arrived but are not credited, because the token's issuer froze the deposit address (`address_frozen`: credited once it is unfrozen) or the payer is on the sanctions screening list (`sender_sanctioned`: credited only if Cambio releases it). A `completed` deposit whose address the issuer freezes while its USDT is still there goes to `held` (`address_frozen`, event `deposit.held`): that credit leaves `available` (as much of it as is still available) and `creditedAmount`, and comes back once it is unfrozen. `split` forwards a share of every confirmed transfer on chain; while the company's withdrawal allowlist is on (dashboard, Integrations), its address must be on it for the deposit's network and usable, or 422 `ADDRESS_NOT_ALLOWED`. A split address Cambio refuses as a destination → 422 `ADDRESS_NOT_ALLOWED` on `split.address` with `details.reason` (as for a withdrawal: `cambio_address`, `token_contract`, `unspendable`), and so is one on the sanctions screening list (OFAC SDN digital-currency addresses and the stage's own entries, compared in any letter case; `details.reason: "sanctioned"`); nothing is written. 503 `NETWORK_UNAVAILABLE`: the network cannot give a new address this moment (Solana's are made ahead, every minute; retry shortly); nothing is written. 503 `SCREENING_UNAVAILABLE`: a `split` was given while the stage's sanctions screening list has not been loaded yet (a new stage, before its first import of OFAC's list); nothing is written, retry later.
         */
        post: operations["createDeposit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/deposits/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a deposit */
        get: operations["getDeposit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/withdrawals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a withdrawal
         * @description `amount + fee` moves from `available` to `locked` atomically, or 422 `INSUFFICIENT_BALANCE` and nothing is written. A network the stage does not open → 400 `VALIDATION_FAILED` on `network`; `address` must be an address of `network`. On `solana` it is a wallet (32 bytes on the Ed25519 curve): the payout goes to its USDT associated token account, created when missing; or that associated token account itself (not frozen), paid as it is. Another token's account, a USDT token account that is not its owner's associated one, a frozen one, or another off-curve address → 400 `VALIDATION_FAILED` saying what it is, since USDT sent there is lost; 503 `NETWORK_UNAVAILABLE` when the Solana node cannot say what the address is this moment (nothing is written: retry). `pending` → `processing` (signed and broadcast) → `completed` | `failed` (funds back to `available`). While the company's withdrawal allowlist is on (dashboard, Integrations), `address` must be on it for `network` and past its waiting period, or 422 `ADDRESS_NOT_ALLOWED` and nothing is written: a leaked API secret cannot add an address. A destination Cambio refuses → 422 `ADDRESS_NOT_ALLOWED` with `details: {field, address, reason}`, whatever the allowlist says, and nothing is written: `cambio_address` (a Cambio hot wallet, or a Cambio deposit address on any network, in either form: the `0x…` twin of a TRON deposit address is refused too), `token_contract` (the network's USDT contract, Solana's USDT mint, or the deposit forwarders' factory or implementation), `unspendable` (any account below 2^32 in either form: the zero address, `0x…dEaD`, the precompiles `0x…01`–`0x…11` and the chains' system contracts; TRON's zero address `T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb`; on Solana the System program `11111111111111111111111111111111`, the incinerator and the Token programs). An `address` on the sanctions screening list (OFAC SDN digital-currency addresses, an Ethereum one on every EVM network, and the stage's own entries; compared in any letter case) → 422 `ADDRESS_NOT_ALLOWED` with `details.reason: "sanctioned"`, whatever the allowlist says, and nothing is written. 503 `SCREENING_UNAVAILABLE` while the stage's screening list has not been loaded yet (a new stage, before its first import of OFAC's list): no address is accepted unscreened, nothing is written, retry later. A destination listed after the request, while the withdrawal waited `pending`, is screened again before it is signed: the withdrawal ends `failed` with `failureReason: "DESTINATION_SANCTIONED"` and its amount and fee back in `available` (`withdrawal.failed`). A `reference` starting `split:` (in any letter case) is reserved for the withdrawals that forward deposit splits: 400 `VALIDATION_FAILED`. The example address is outside every range Cambio derives deposit addresses from, so it pays no deposit.
         */
        post: operations["createWithdrawal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/withdrawals/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a withdrawal */
        get: operations["getWithdrawal"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/conversions/quote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Quote a USDT → BRL conversion
         * @description Fixes the rate for 30 s. `settlementAmount` = `sourceAmount` × `rate`, rounded down to the cent.
         */
        post: operations["createQuote"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/conversions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List conversions
         * @description Newest first; follow `pagination.nextCursor` until it is null.
         */
        get: operations["listConversions"];
        put?: never;
        /**
         * Execute a quote
         * @description One transaction: USDT debited, BRL credited, quote marked used.
         */
        post: operations["createConversion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/conversions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a conversion */
        get: operations["getConversion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhooks
         * @description Newest first; follow `pagination.nextCursor` until it is null.
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Create a webhook
         * @description At most 10 per company. `url` must be `https://` and resolve to public addresses only (the local runtime alone also allows `http://` loopback targets). The answer carries the signing `secret`, shown only this once.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a webhook */
        get: operations["getWebhook"];
        /**
         * Replace a webhook
         * @description Same body as POST; omitted optional fields take their defaults. The secret is kept.
         */
        put: operations["replaceWebhook"];
        post?: never;
        /** Delete a webhook */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "deposit.confirming": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * deposit.confirming
         * @description POSTed to every enabled webhook subscribed to this type (or to `*`). Verify the signature over the raw body before parsing it. Any 2xx within 15 s acknowledges it; otherwise it is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h. Order is not guaranteed: compare `data.updatedAt`.
         */
        post: operations["depositConfirmingEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "deposit.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * deposit.completed
         * @description POSTed to every enabled webhook subscribed to this type (or to `*`). Verify the signature over the raw body before parsing it. Any 2xx within 15 s acknowledges it; otherwise it is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h. Order is not guaranteed: compare `data.updatedAt`.
         */
        post: operations["depositCompletedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "deposit.expired": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * deposit.expired
         * @description POSTed to every enabled webhook subscribed to this type (or to `*`). Verify the signature over the raw body before parsing it. Any 2xx within 15 s acknowledges it; otherwise it is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h. Order is not guaranteed: compare `data.updatedAt`.
         */
        post: operations["depositExpiredEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "deposit.held": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * deposit.held
         * @description POSTed to every enabled webhook subscribed to this type (or to `*`). Verify the signature over the raw body before parsing it. Any 2xx within 15 s acknowledges it; otherwise it is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h. Order is not guaranteed: compare `data.updatedAt`.
         */
        post: operations["depositHeldEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "deposit.transfer_reversed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * deposit.transfer_reversed
         * @description POSTed to every enabled webhook subscribed to this type (or to `*`). Verify the signature over the raw body before parsing it. Any 2xx within 15 s acknowledges it; otherwise it is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h. Order is not guaranteed: compare `data.updatedAt`.
         */
        post: operations["depositTransferReversedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "withdrawal.processing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * withdrawal.processing
         * @description POSTed to every enabled webhook subscribed to this type (or to `*`). Verify the signature over the raw body before parsing it. Any 2xx within 15 s acknowledges it; otherwise it is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h. Order is not guaranteed: compare `data.updatedAt`.
         */
        post: operations["withdrawalProcessingEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "withdrawal.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * withdrawal.completed
         * @description POSTed to every enabled webhook subscribed to this type (or to `*`). Verify the signature over the raw body before parsing it. Any 2xx within 15 s acknowledges it; otherwise it is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h. Order is not guaranteed: compare `data.updatedAt`.
         */
        post: operations["withdrawalCompletedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "withdrawal.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * withdrawal.failed
         * @description POSTed to every enabled webhook subscribed to this type (or to `*`). Verify the signature over the raw body before parsing it. Any 2xx within 15 s acknowledges it; otherwise it is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h. Order is not guaranteed: compare `data.updatedAt`.
         */
        post: operations["withdrawalFailedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "conversion.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * conversion.completed
         * @description POSTed to every enabled webhook subscribed to this type (or to `*`). Verify the signature over the raw body before parsing it. Any 2xx within 15 s acknowledges it; otherwise it is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h. Order is not guaranteed: compare `data.updatedAt`.
         */
        post: operations["conversionCompletedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * webhook.test
         * @description POSTed to one webhook when someone presses `Send test event` on its page in the dashboard; no webhook subscribes to it, not even with `*`. Ignore it, or use it to check your endpoint and its signature check. Verify the signature over the raw body before parsing it. Any 2xx within 15 s acknowledges it; otherwise it is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h. Order is not guaranteed: compare `data.updatedAt`.
         */
        post: operations["webhookTestEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        Balance: {
            balances: ({
                /** @constant */
                currency: "USDT";
                /**
                 * @description Spendable now
                 * @example 25.500000
                 */
                available: string;
                /**
                 * @description Deposits seen on chain, not yet confirmed
                 * @example 25.500000
                 */
                pending: string;
                /**
                 * @description Held for withdrawals in flight
                 * @example 25.500000
                 */
                locked: string;
            } | {
                /** @constant */
                currency: "BRL";
                /**
                 * @description Spendable now
                 * @example 54.00
                 */
                available: string;
                /**
                 * @description Deposits seen on chain, not yet confirmed
                 * @example 54.00
                 */
                pending: string;
                /**
                 * @description Held for withdrawals in flight
                 * @example 54.00
                 */
                locked: string;
            })[];
            /**
             * Format: date-time
             * @example 2026-01-15T12:00:00.000Z
             */
            updatedAt: string;
        };
        /** @description A `Balance` in the success envelope */
        BalanceResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["Balance"];
        };
        Company: {
            /** @example cmp_01JBZ6W1V7Q8R9S0T1A2V3W4X5 */
            id: string;
            name: string;
            /** @enum {string} */
            environment: "sandbox" | "production";
            /** @constant */
            status: "active";
            /**
             * Format: date-time
             * @example 2026-01-15T12:00:00.000Z
             */
            createdAt: string;
            /** @description The company's own rate limit on this stage; past it, requests are answered 429 `RATE_LIMITED` with `Retry-After` */
            rateLimit: {
                /** @description The rate limit tier the company is at: `standard` for every new company, `growth` or `scale` once Cambio raises it */
                tier: string;
                /** @description Requests a second the company may send, steadily */
                requestsPerSecond: number;
                /** @description Requests the company may send at once before the steady rate applies */
                burst: number;
            };
        };
        /** @description A `Company` in the success envelope */
        CompanyResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["Company"];
        };
        Conversion: {
            /** @example cnv_01JBZ6W1V7Q8R9S0T1A2V3W4X5 */
            id: string;
            /** @example qte_01JBZ6W1V7Q8R9S0T1A2V3W4X5 */
            quoteId: string;
            reference: string | null;
            /** @constant */
            sourceCurrency: "USDT";
            /** @constant */
            settlementCurrency: "BRL";
            /**
             * @description USDT amount as a decimal string with all 6 decimals
             * @example 25.500000
             */
            sourceAmount: string;
            /**
             * @description BRL amount as a decimal string with all 2 decimals
             * @example 54.00
             */
            settlementAmount: string;
            /** @description BRL per USDT with 8 decimals, Cambio's spread included */
            rate: string;
            /** @constant */
            status: "completed";
            /**
             * Format: date-time
             * @example 2026-01-15T12:00:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-01-15T12:00:00.000Z
             */
            completedAt: string;
        };
        ConversionCompletedEvent: {
            /**
             * @description The event id; also the `webhook-id` header: deduplicate on it
             * @example evt_01JBZ6W1V7Q8R9S0T1A2V3W4X5
             */
            id: string;
            /** @constant */
            type: "conversion.completed";
            /**
             * Format: date-time
             * @example 2026-01-15T12:00:00.000Z
             */
            createdAt: string;
            data: components["schemas"]["Conversion"];
        };
        /** @description A page of `Conversion` records, newest first, in the success envelope */
        ConversionList: {
            /** @constant */
            success: true;
            data: components["schemas"]["Conversion"][];
            pagination: {
                /** @description Pass as `cursor` for the next page; null on the last page */
                nextCursor: string | null;
            };
        };
        /** @description A `Conversion` in the success envelope */
        ConversionResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["Conversion"];
        };
        CreateConversionRequest: {
            quoteId: string;
            reference?: string;
        };
        CreateDepositRequest: {
            /** @constant */
            method: "usdt";
            reference: string;
            /** @enum {string} */
            network: "tron" | "ethereum" | "bsc" | "polygon" | "arbitrum" | "solana";
            /**
             * @description USDT amount: a decimal string greater than zero with at most 6 decimals, never a JSON number
             * @example 25.50
             */
            amount?: string;
            /** @description Forwards a share of every confirmed transfer to `address`: either `percent` of it or a fixed `amount`, not both */
            split?: {
                /** @description TRON address (base58check, starting with T) or Ethereum, BNB Smart Chain, Polygon PoS or Arbitrum One address (EIP-55 0x followed by 40 hex digits) or Solana address (base58 of 32 bytes: a wallet, or a wallet's USDT associated token account) */
                address: string;
                /** @description Percentage of every confirmed transfer, at most 2 decimals */
                percent: number;
                amount?: never;
            } | {
                /** @description TRON address (base58check, starting with T) or Ethereum, BNB Smart Chain, Polygon PoS or Arbitrum One address (EIP-55 0x followed by 40 hex digits) or Solana address (base58 of 32 bytes: a wallet, or a wallet's USDT associated token account) */
                address: string;
                /**
                 * @description USDT amount: a decimal string greater than zero with at most 6 decimals, never a JSON number
                 * @example 25.50
                 */
                amount: string;
                percent?: never;
            };
        };
        CreateQuoteRequest: {
            /** @constant */
            sourceCurrency: "USDT";
            /** @constant */
            settlementCurrency: "BRL";
            /**
             * @description USDT amount: a decimal string greater than zero with at most 6 decimals, never a JSON number
             * @example 25.50
             */
            sourceAmount: string;
        };
        CreateWithdrawalRequest: {
            /** @constant */
            method: "usdt";
            /** @enum {string} */
            network: "tron" | "ethereum" | "bsc" | "polygon" | "arbitrum" | "solana";
            /** @description TRON address (base58check, starting with T) or Ethereum, BNB Smart Chain, Polygon PoS or Arbitrum One address (EIP-55 0x followed by 40 hex digits) or Solana address (base58 of 32 bytes: a wallet, or a wallet's USDT associated token account) */
            address: string;
            /**
             * @description USDT amount: a decimal string greater than zero with at most 6 decimals, never a JSON number
             * @example 25.50
             */
            amount: string;
            reference: string;
        };
        CreatedWebhook: {
            /** @example whk_01JBZ6W1V7Q8R9S0T1A2V3W4X5 */
            id: string;
            url: string;
            events: ("deposit.confirming" | "deposit.completed" | "deposit.expired" | "deposit.held" | "deposit.transfer_reversed" | "withdrawal.processing" | "withdrawal.completed" | "withdrawal.failed" | "conversion.completed")[] | [
                "*"
            ];
            description: string | null;
            enabled: boolean;
            /**
             * Format: date-time
             * @example 2026-01-15T12:00:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-01-15T12:00:00.000Z
             */
            updatedAt: string;
            /** @description Standard Webhooks signing secret: `whsec_` + base64 of 24 random bytes. Shown once: store it. */
            secret: string;
        };
        /** @description A `CreatedWebhook` in the success envelope */
        CreatedWebhookResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["CreatedWebhook"];
        };
        DeletedWebhook: {
            /** @example whk_01JBZ6W1V7Q8R9S0T1A2V3W4X5 */
            id: string;
            /** @constant */
            deleted: true;
        };
        /** @description A `DeletedWebhook` in the success envelope */
        DeletedWebhookResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["DeletedWebhook"];
        };
        Deposit: {
            /** @example dep_01JBZ6W1V7Q8R9S0T1A2V3W4X5 */
            id: string;
            /** @constant */
            method: "usdt";
            reference: string;
            /** @enum {string} */
            network: "tron" | "ethereum" | "bsc" | "polygon" | "arbitrum" | "solana";
            /** @description The address to pay, on the deposit's network and for this deposit only: on TRON, Ethereum, BNB Smart Chain, Polygon PoS, Arbitrum One or Solana */
            address: string;
            amount: string | null;
            /**
             * @description USDT amount as a decimal string with all 6 decimals
             * @example 25.500000
             */
            receivedAmount: string;
            /**
             * @description USDT amount as a decimal string with all 6 decimals
             * @example 25.500000
             */
            creditedAmount: string;
            amountStatus: ("exact" | "underpaid" | "overpaid") | null;
            /**
             * @description `held`: funds arrived that cannot be credited (see `holdReason`); not in `available` until released
             * @enum {string}
             */
            status: "awaiting_payment" | "confirming" | "completed" | "expired" | "held";
            /** @description Why a `held` deposit is not credited: `address_frozen` (the token's issuer froze the deposit address; credited once unfrozen) or `sender_sanctioned` (the paying address is on the sanctions list; credited only if Cambio releases it). Null otherwise. */
            holdReason: ("address_frozen" | "sender_sanctioned") | null;
            confirmations: number;
            requiredConfirmations: number;
            transactions: {
                txHash: string;
                /**
                 * @description USDT amount as a decimal string with all 6 decimals
                 * @example 25.500000
                 */
                amount: string;
                blockNumber: number;
                confirmations: number;
                /** @enum {string} */
                status: "confirming" | "confirmed";
            }[];
            split: {
                address: string;
                percent: number | null;
                amount: string | null;
                /**
                 * @description USDT amount as a decimal string with all 6 decimals
                 * @example 25.500000
                 */
                forwardedAmount: string;
                withdrawalId: string | null;
            } | null;
            /**
             * Format: date-time
             * @example 2026-01-15T12:00:00.000Z
             */
            expiresAt: string;
            /**
             * Format: date-time
             * @example 2026-01-15T12:00:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-01-15T12:00:00.000Z
             */
            updatedAt: string;
        };
        DepositCompletedEvent: {
            /**
             * @description The event id; also the `webhook-id` header: deduplicate on it
             * @example evt_01JBZ6W1V7Q8R9S0T1A2V3W4X5
             */
            id: string;
            /** @constant */
            type: "deposit.completed";
            /**
             * Format: date-time
             * @example 2026-01-15T12:00:00.000Z
             */
            createdAt: string;
            data: components["schemas"]["Deposit"];
        };
        DepositConfirmingEvent: {
            /**
             * @description The event id; also the `webhook-id` header: deduplicate on it
             * @example evt_01JBZ6W1V7Q8R9S0T1A2V3W4X5
             */
            id: string;
            /** @constant */
            type: "deposit.confirming";
            /**
             * Format: date-time
             * @example 2026-01-15T12:00:00.000Z
             */
            createdAt: string;
            data: components["schemas"]["Deposit"];
        };
        DepositExpiredEvent: {
            /**
             * @description The event id; also the `webhook-id` header: deduplicate on it
             * @example evt_01JBZ6W1V7Q8R9S0T1A2V3W4X5
             */
            id: string;
            /** @constant */
            type: "deposit.expired";
            /**
             * Format: date-time
             * @example 2026-01-15T12:00:00.000Z
             */
            createdAt: string;
            data: components["schemas"]["Deposit"];
        };
        DepositHeldEvent: {
            /**
             * @description The event id; also the `webhook-id` header: deduplicate on it
             * @example evt_01JBZ6W1V7Q8R9S0T1A2V3W4X5
             */
            id: string;
            /** @constant */
            type: "deposit.held";
            /**
             * Format: date-time
             * @example 2026-01-15T12:00:00.000Z
             */
            createdAt: string;
            data: components["schemas"]["Deposit"];
        };
        /** @description A `Deposit` in the success envelope */
        DepositResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["Deposit"];
        };
        DepositTransferReversedEvent: {
            /**
             * @description The event id; also the `webhook-id` header: deduplicate on it
             * @example evt_01JBZ6W1V7Q8R9S0T1A2V3W4X5
             */
            id: string;
            /** @constant */
            type: "deposit.transfer_reversed";
            /**
             * Format: date-time
             * @example 2026-01-15T12:00:00.000Z
             */
            createdAt: string;
            data: components["schemas"]["Deposit"];
        };
        ErrorResponse: {
            /** @constant */
            success: false;
            error: {
                /** @enum {string} */
                code: "INVALID_JSON" | "VALIDATION_FAILED" | "AUTH_FAILED" | "FORBIDDEN" | "NOT_FOUND" | "DUPLICATE_REFERENCE" | "IDEMPOTENCY_KEY_IN_USE" | "QUOTE_ALREADY_USED" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "INSUFFICIENT_BALANCE" | "QUOTE_EXPIRED" | "AMOUNT_TOO_SMALL" | "LIMIT_REACHED" | "ADDRESS_NOT_ALLOWED" | "IDEMPOTENCY_KEY_REUSED" | "RATE_LIMITED" | "INTERNAL_ERROR" | "PRICE_UNAVAILABLE" | "NETWORK_UNAVAILABLE" | "SCREENING_UNAVAILABLE";
                /** @description For people; match on `code` */
                message: string;
                /** @description `null`; for VALIDATION_FAILED the failing fields; for some codes an object (e.g. `existingId`, `minimum`) */
                details: null | components["schemas"]["FieldError"][] | {
                    [key: string]: unknown;
                };
            };
        };
        FieldError: {
            path: string;
            message: string;
        };
        Quote: {
            /** @example qte_01JBZ6W1V7Q8R9S0T1A2V3W4X5 */
            id: string;
            /** @constant */
            sourceCurrency: "USDT";
            /** @constant */
            settlementCurrency: "BRL";
            /**
             * @description USDT amount as a decimal string with all 6 decimals
             * @example 25.500000
             */
            sourceAmount: string;
            /**
             * @description sourceAmount × rate, rounded down to the cent
             * @example 54.00
             */
            settlementAmount: string;
            /** @description BRL per USDT with 8 decimals, Cambio's spread included */
            rate: string;
            /**
             * Format: date-time
             * @example 2026-01-15T12:00:00.000Z
             */
            expiresAt: string;
            /**
             * Format: date-time
             * @example 2026-01-15T12:00:00.000Z
             */
            createdAt: string;
        };
        /** @description A `Quote` in the success envelope */
        QuoteResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["Quote"];
        };
        Webhook: {
            /** @example whk_01JBZ6W1V7Q8R9S0T1A2V3W4X5 */
            id: string;
            url: string;
            events: ("deposit.confirming" | "deposit.completed" | "deposit.expired" | "deposit.held" | "deposit.transfer_reversed" | "withdrawal.processing" | "withdrawal.completed" | "withdrawal.failed" | "conversion.completed")[] | [
                "*"
            ];
            description: string | null;
            enabled: boolean;
            /**
             * Format: date-time
             * @example 2026-01-15T12:00:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-01-15T12:00:00.000Z
             */
            updatedAt: string;
        };
        /** @description A page of `Webhook` records, newest first, in the success envelope */
        WebhookList: {
            /** @constant */
            success: true;
            data: components["schemas"]["Webhook"][];
            pagination: {
                /** @description Pass as `cursor` for the next page; null on the last page */
                nextCursor: string | null;
            };
        };
        WebhookRequest: {
            /**
             * Format: uri
             * @description `https://` URL resolving to public addresses only (the local runtime also allows `http://` loopback)
             */
            url: string;
            /** @description Event types to receive, or `["*"]` alone for all of them */
            events: ("deposit.confirming" | "deposit.completed" | "deposit.expired" | "deposit.held" | "deposit.transfer_reversed" | "withdrawal.processing" | "withdrawal.completed" | "withdrawal.failed" | "conversion.completed" | "*")[];
            description?: string | null;
            enabled?: boolean;
        };
        /** @description A `Webhook` in the success envelope */
        WebhookResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["Webhook"];
        };
        WebhookTestEvent: {
            /**
             * @description The event id; also the `webhook-id` header
             * @example evt_01JBZ6W1V7Q8R9S0T1A2V3W4X5
             */
            id: string;
            /** @constant */
            type: "webhook.test";
            /**
             * Format: date-time
             * @example 2026-01-15T12:00:00.000Z
             */
            createdAt: string;
            data: {
                /** @example whk_01JBZ6W1V7Q8R9S0T1A2V3W4X5 */
                webhookId: string;
                url: string;
                message: string;
            };
        };
        Withdrawal: {
            /** @example wdr_01JBZ6W1V7Q8R9S0T1A2V3W4X5 */
            id: string;
            /** @constant */
            method: "usdt";
            reference: string;
            /** @enum {string} */
            network: "tron" | "ethereum" | "bsc" | "polygon" | "arbitrum" | "solana";
            address: string;
            /**
             * @description USDT amount as a decimal string with all 6 decimals
             * @example 25.500000
             */
            amount: string;
            /**
             * @description Network fee, held and spent on top of `amount`
             * @example 25.500000
             */
            fee: string;
            /** @enum {string} */
            status: "pending" | "processing" | "completed" | "failed";
            txHash: string | null;
            /** @description What the destination received per the token's Transfer event, once completed: below `amount` only when the token's issuer charges a transfer fee. Null until completed. */
            deliveredAmount: string | null;
            /** @description What the payout cost Cambio on the network, in the network's own coin, once its transaction is final (completed, or failed after it landed: a failed transaction still pays its fee). Cambio's cost, not charged to the company: the withdrawal's `fee` covers it. Null until then, for a payout that never landed (but one whose nonce another transaction filled, after the node refused it for good, shows that transaction's cost), and on withdrawals settled before their network reported it. */
            networkCost: {
                /**
                 * @description The network's own coin the hot wallet paid in (its fee asset): TRX, ETH (ethereum and arbitrum), BNB, POL or SOL on today's networks
                 * @example TRX
                 * @example ETH
                 * @example SOL
                 */
                asset: string;
                /**
                 * @description What the hot wallet paid in the final transaction, a decimal string with all the coin's decimals (TRX: 6, SOL: 9, ETH, BNB and POL: 18): its fee (TRX burnt for the energy and bandwidth the hot wallet had not staked; gas used at its effective price), plus the rent of the destination's token account when the payout created it (Solana)
                 * @example 13.844500
                 * @example 0.002044280
                 */
                amount: string;
                /** @description The payout created the destination's token account (Solana), its rent included in `amount`; always false on the other networks, whose token keeps its balances itself */
                tokenAccountCreated: boolean;
            } | null;
            failureReason: string | null;
            /**
             * Format: date-time
             * @example 2026-01-15T12:00:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-01-15T12:00:00.000Z
             */
            updatedAt: string;
            completedAt: string | null;
        };
        WithdrawalCompletedEvent: {
            /**
             * @description The event id; also the `webhook-id` header: deduplicate on it
             * @example evt_01JBZ6W1V7Q8R9S0T1A2V3W4X5
             */
            id: string;
            /** @constant */
            type: "withdrawal.completed";
            /**
             * Format: date-time
             * @example 2026-01-15T12:00:00.000Z
             */
            createdAt: string;
            data: components["schemas"]["Withdrawal"];
        };
        WithdrawalFailedEvent: {
            /**
             * @description The event id; also the `webhook-id` header: deduplicate on it
             * @example evt_01JBZ6W1V7Q8R9S0T1A2V3W4X5
             */
            id: string;
            /** @constant */
            type: "withdrawal.failed";
            /**
             * Format: date-time
             * @example 2026-01-15T12:00:00.000Z
             */
            createdAt: string;
            data: components["schemas"]["Withdrawal"];
        };
        WithdrawalProcessingEvent: {
            /**
             * @description The event id; also the `webhook-id` header: deduplicate on it
             * @example evt_01JBZ6W1V7Q8R9S0T1A2V3W4X5
             */
            id: string;
            /** @constant */
            type: "withdrawal.processing";
            /**
             * Format: date-time
             * @example 2026-01-15T12:00:00.000Z
             */
            createdAt: string;
            data: components["schemas"]["Withdrawal"];
        };
        /** @description A `Withdrawal` in the success envelope */
        WithdrawalResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["Withdrawal"];
        };
    };
    responses: never;
    parameters: {
        /** @description Makes the POST safe to retry: kept 24 h per company. The same key with the same body replays the first answer with `Idempotent-Replayed: true`; with another body → 422 `IDEMPOTENCY_KEY_REUSED`; while the first is still running → 409 `IDEMPOTENCY_KEY_IN_USE`. A request that failed validation stores nothing. Use a UUID. */
        IdempotencyKey: string;
    };
    requestBodies: never;
    headers: {
        /** @description Unique id of this request: quote it to support */
        RequestId: string;
        /** @description Seconds to wait before sending the request again */
        RetryAfter: number;
        /** @description `true` when this answer is the stored answer to an earlier request with the same Idempotency-Key */
        IdempotentReplayed: "true";
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getCompany: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The company */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompanyResponse"];
                };
            };
            /** @description `AUTH_FAILED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `FORBIDDEN` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getBalance: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Balances by currency */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BalanceResponse"];
                };
            };
            /** @description `AUTH_FAILED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `FORBIDDEN` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createDeposit: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: kept 24 h per company. The same key with the same body replays the first answer with `Idempotent-Replayed: true`; with another body → 422 `IDEMPOTENCY_KEY_REUSED`; while the first is still running → 409 `IDEMPOTENCY_KEY_IN_USE`. A request that failed validation stores nothing. Use a UUID. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "method": "usdt",
                 *       "network": "tron",
                 *       "reference": "order-1001",
                 *       "amount": "25.00"
                 *     }
                 */
                "application/json": components["schemas"]["CreateDepositRequest"];
            };
        };
        responses: {
            /** @description The deposit, with its address */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DepositResponse"];
                };
            };
            /** @description `INVALID_JSON`, `VALIDATION_FAILED` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `AUTH_FAILED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `FORBIDDEN` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `DUPLICATE_REFERENCE`, `IDEMPOTENCY_KEY_IN_USE` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `PAYLOAD_TOO_LARGE` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `UNSUPPORTED_MEDIA_TYPE` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `ADDRESS_NOT_ALLOWED`, `IDEMPOTENCY_KEY_REUSED` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `NETWORK_UNAVAILABLE`, `SCREENING_UNAVAILABLE` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getDeposit: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id; unknown, malformed or another company’s → 404 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deposit */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DepositResponse"];
                };
            };
            /** @description `AUTH_FAILED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `FORBIDDEN` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `NOT_FOUND` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createWithdrawal: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: kept 24 h per company. The same key with the same body replays the first answer with `Idempotent-Replayed: true`; with another body → 422 `IDEMPOTENCY_KEY_REUSED`; while the first is still running → 409 `IDEMPOTENCY_KEY_IN_USE`. A request that failed validation stores nothing. Use a UUID. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "method": "usdt",
                 *       "network": "tron",
                 *       "address": "TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui",
                 *       "amount": "5.00",
                 *       "reference": "payout-1001"
                 *     }
                 */
                "application/json": components["schemas"]["CreateWithdrawalRequest"];
            };
        };
        responses: {
            /** @description The withdrawal, pending */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WithdrawalResponse"];
                };
            };
            /** @description `INVALID_JSON`, `VALIDATION_FAILED` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `AUTH_FAILED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `FORBIDDEN` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `DUPLICATE_REFERENCE`, `IDEMPOTENCY_KEY_IN_USE` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `PAYLOAD_TOO_LARGE` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `UNSUPPORTED_MEDIA_TYPE` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `INSUFFICIENT_BALANCE`, `AMOUNT_TOO_SMALL`, `LIMIT_REACHED`, `ADDRESS_NOT_ALLOWED`, `IDEMPOTENCY_KEY_REUSED` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `NETWORK_UNAVAILABLE`, `SCREENING_UNAVAILABLE` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getWithdrawal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id; unknown, malformed or another company’s → 404 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The withdrawal */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WithdrawalResponse"];
                };
            };
            /** @description `AUTH_FAILED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `FORBIDDEN` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `NOT_FOUND` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createQuote: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: kept 24 h per company. The same key with the same body replays the first answer with `Idempotent-Replayed: true`; with another body → 422 `IDEMPOTENCY_KEY_REUSED`; while the first is still running → 409 `IDEMPOTENCY_KEY_IN_USE`. A request that failed validation stores nothing. Use a UUID. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "sourceCurrency": "USDT",
                 *       "settlementCurrency": "BRL",
                 *       "sourceAmount": "10.00"
                 *     }
                 */
                "application/json": components["schemas"]["CreateQuoteRequest"];
            };
        };
        responses: {
            /** @description The quote */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuoteResponse"];
                };
            };
            /** @description `INVALID_JSON`, `VALIDATION_FAILED` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `AUTH_FAILED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `FORBIDDEN` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `IDEMPOTENCY_KEY_IN_USE` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `PAYLOAD_TOO_LARGE` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `UNSUPPORTED_MEDIA_TYPE` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `IDEMPOTENCY_KEY_REUSED` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `PRICE_UNAVAILABLE` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listConversions: {
        parameters: {
            query?: {
                /** @description Page size */
                limit?: number;
                /** @description `pagination.nextCursor` of the previous page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of conversions */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversionList"];
                };
            };
            /** @description `VALIDATION_FAILED` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `AUTH_FAILED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `FORBIDDEN` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createConversion: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: kept 24 h per company. The same key with the same body replays the first answer with `Idempotent-Replayed: true`; with another body → 422 `IDEMPOTENCY_KEY_REUSED`; while the first is still running → 409 `IDEMPOTENCY_KEY_IN_USE`. A request that failed validation stores nothing. Use a UUID. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "quoteId": "qte_01JBZ6W1V7Q8R9S0T1A2V3W4X5",
                 *       "reference": "convert-1001"
                 *     }
                 */
                "application/json": components["schemas"]["CreateConversionRequest"];
            };
        };
        responses: {
            /** @description The completed conversion */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversionResponse"];
                };
            };
            /** @description `INVALID_JSON`, `VALIDATION_FAILED` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `AUTH_FAILED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `FORBIDDEN` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `NOT_FOUND` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `IDEMPOTENCY_KEY_IN_USE`, `QUOTE_ALREADY_USED` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `PAYLOAD_TOO_LARGE` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `UNSUPPORTED_MEDIA_TYPE` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `INSUFFICIENT_BALANCE`, `QUOTE_EXPIRED`, `IDEMPOTENCY_KEY_REUSED` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getConversion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id; unknown, malformed or another company’s → 404 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The conversion */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversionResponse"];
                };
            };
            /** @description `AUTH_FAILED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `FORBIDDEN` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `NOT_FOUND` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: {
                /** @description Page size */
                limit?: number;
                /** @description `pagination.nextCursor` of the previous page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of webhooks */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookList"];
                };
            };
            /** @description `VALIDATION_FAILED` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `AUTH_FAILED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `FORBIDDEN` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: kept 24 h per company. The same key with the same body replays the first answer with `Idempotent-Replayed: true`; with another body → 422 `IDEMPOTENCY_KEY_REUSED`; while the first is still running → 409 `IDEMPOTENCY_KEY_IN_USE`. A request that failed validation stores nothing. Use a UUID. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://example.com/webhooks/cambio",
                 *       "events": [
                 *         "deposit.completed",
                 *         "withdrawal.completed"
                 *       ],
                 *       "description": "Orders service"
                 *     }
                 */
                "application/json": components["schemas"]["WebhookRequest"];
            };
        };
        responses: {
            /** @description The webhook and its secret */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedWebhookResponse"];
                };
            };
            /** @description `INVALID_JSON`, `VALIDATION_FAILED` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `AUTH_FAILED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `FORBIDDEN` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `IDEMPOTENCY_KEY_IN_USE` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `PAYLOAD_TOO_LARGE` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `UNSUPPORTED_MEDIA_TYPE` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `LIMIT_REACHED`, `IDEMPOTENCY_KEY_REUSED` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id; unknown, malformed or another company’s → 404 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookResponse"];
                };
            };
            /** @description `AUTH_FAILED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `FORBIDDEN` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `NOT_FOUND` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    replaceWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id; unknown, malformed or another company’s → 404 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://example.com/webhooks/cambio",
                 *       "events": [
                 *         "deposit.completed",
                 *         "withdrawal.completed"
                 *       ],
                 *       "description": "Orders service"
                 *     }
                 */
                "application/json": components["schemas"]["WebhookRequest"];
            };
        };
        responses: {
            /** @description The webhook as replaced */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookResponse"];
                };
            };
            /** @description `INVALID_JSON`, `VALIDATION_FAILED` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `AUTH_FAILED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `FORBIDDEN` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `NOT_FOUND` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `PAYLOAD_TOO_LARGE` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `UNSUPPORTED_MEDIA_TYPE` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id; unknown, malformed or another company’s → 404 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook is gone */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedWebhookResponse"];
                };
            };
            /** @description `AUTH_FAILED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `FORBIDDEN` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `NOT_FOUND` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    depositConfirmingEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (`evt_…`): the same on every retry, so deduplicate on it
                 * @example evt_01JBZ6W1V7Q8R9S0T1A2V3W4X5
                 */
                "webhook-id": string;
                /**
                 * @description Unix seconds when this attempt was signed; refuse it if more than 5 minutes away from now
                 * @example 1767225600
                 */
                "webhook-timestamp": string;
                /**
                 * @description Space-separated `v1,<base64>` signatures: base64(HMAC-SHA256(key, `${webhook-id}.${webhook-timestamp}.${raw body}`)), the key being the base64-decoded part of your secret after `whsec_`. Compare in constant time.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DepositConfirmingEvent"];
            };
        };
        responses: {
            /** @description Any 2xx within 15 s: delivered */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: Cambio disables the webhook */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    depositCompletedEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (`evt_…`): the same on every retry, so deduplicate on it
                 * @example evt_01JBZ6W1V7Q8R9S0T1A2V3W4X5
                 */
                "webhook-id": string;
                /**
                 * @description Unix seconds when this attempt was signed; refuse it if more than 5 minutes away from now
                 * @example 1767225600
                 */
                "webhook-timestamp": string;
                /**
                 * @description Space-separated `v1,<base64>` signatures: base64(HMAC-SHA256(key, `${webhook-id}.${webhook-timestamp}.${raw body}`)), the key being the base64-decoded part of your secret after `whsec_`. Compare in constant time.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DepositCompletedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx within 15 s: delivered */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: Cambio disables the webhook */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    depositExpiredEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (`evt_…`): the same on every retry, so deduplicate on it
                 * @example evt_01JBZ6W1V7Q8R9S0T1A2V3W4X5
                 */
                "webhook-id": string;
                /**
                 * @description Unix seconds when this attempt was signed; refuse it if more than 5 minutes away from now
                 * @example 1767225600
                 */
                "webhook-timestamp": string;
                /**
                 * @description Space-separated `v1,<base64>` signatures: base64(HMAC-SHA256(key, `${webhook-id}.${webhook-timestamp}.${raw body}`)), the key being the base64-decoded part of your secret after `whsec_`. Compare in constant time.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DepositExpiredEvent"];
            };
        };
        responses: {
            /** @description Any 2xx within 15 s: delivered */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: Cambio disables the webhook */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    depositHeldEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (`evt_…`): the same on every retry, so deduplicate on it
                 * @example evt_01JBZ6W1V7Q8R9S0T1A2V3W4X5
                 */
                "webhook-id": string;
                /**
                 * @description Unix seconds when this attempt was signed; refuse it if more than 5 minutes away from now
                 * @example 1767225600
                 */
                "webhook-timestamp": string;
                /**
                 * @description Space-separated `v1,<base64>` signatures: base64(HMAC-SHA256(key, `${webhook-id}.${webhook-timestamp}.${raw body}`)), the key being the base64-decoded part of your secret after `whsec_`. Compare in constant time.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DepositHeldEvent"];
            };
        };
        responses: {
            /** @description Any 2xx within 15 s: delivered */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: Cambio disables the webhook */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    depositTransferReversedEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (`evt_…`): the same on every retry, so deduplicate on it
                 * @example evt_01JBZ6W1V7Q8R9S0T1A2V3W4X5
                 */
                "webhook-id": string;
                /**
                 * @description Unix seconds when this attempt was signed; refuse it if more than 5 minutes away from now
                 * @example 1767225600
                 */
                "webhook-timestamp": string;
                /**
                 * @description Space-separated `v1,<base64>` signatures: base64(HMAC-SHA256(key, `${webhook-id}.${webhook-timestamp}.${raw body}`)), the key being the base64-decoded part of your secret after `whsec_`. Compare in constant time.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DepositTransferReversedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx within 15 s: delivered */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: Cambio disables the webhook */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    withdrawalProcessingEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (`evt_…`): the same on every retry, so deduplicate on it
                 * @example evt_01JBZ6W1V7Q8R9S0T1A2V3W4X5
                 */
                "webhook-id": string;
                /**
                 * @description Unix seconds when this attempt was signed; refuse it if more than 5 minutes away from now
                 * @example 1767225600
                 */
                "webhook-timestamp": string;
                /**
                 * @description Space-separated `v1,<base64>` signatures: base64(HMAC-SHA256(key, `${webhook-id}.${webhook-timestamp}.${raw body}`)), the key being the base64-decoded part of your secret after `whsec_`. Compare in constant time.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WithdrawalProcessingEvent"];
            };
        };
        responses: {
            /** @description Any 2xx within 15 s: delivered */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: Cambio disables the webhook */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    withdrawalCompletedEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (`evt_…`): the same on every retry, so deduplicate on it
                 * @example evt_01JBZ6W1V7Q8R9S0T1A2V3W4X5
                 */
                "webhook-id": string;
                /**
                 * @description Unix seconds when this attempt was signed; refuse it if more than 5 minutes away from now
                 * @example 1767225600
                 */
                "webhook-timestamp": string;
                /**
                 * @description Space-separated `v1,<base64>` signatures: base64(HMAC-SHA256(key, `${webhook-id}.${webhook-timestamp}.${raw body}`)), the key being the base64-decoded part of your secret after `whsec_`. Compare in constant time.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WithdrawalCompletedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx within 15 s: delivered */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: Cambio disables the webhook */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    withdrawalFailedEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (`evt_…`): the same on every retry, so deduplicate on it
                 * @example evt_01JBZ6W1V7Q8R9S0T1A2V3W4X5
                 */
                "webhook-id": string;
                /**
                 * @description Unix seconds when this attempt was signed; refuse it if more than 5 minutes away from now
                 * @example 1767225600
                 */
                "webhook-timestamp": string;
                /**
                 * @description Space-separated `v1,<base64>` signatures: base64(HMAC-SHA256(key, `${webhook-id}.${webhook-timestamp}.${raw body}`)), the key being the base64-decoded part of your secret after `whsec_`. Compare in constant time.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WithdrawalFailedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx within 15 s: delivered */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: Cambio disables the webhook */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    conversionCompletedEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (`evt_…`): the same on every retry, so deduplicate on it
                 * @example evt_01JBZ6W1V7Q8R9S0T1A2V3W4X5
                 */
                "webhook-id": string;
                /**
                 * @description Unix seconds when this attempt was signed; refuse it if more than 5 minutes away from now
                 * @example 1767225600
                 */
                "webhook-timestamp": string;
                /**
                 * @description Space-separated `v1,<base64>` signatures: base64(HMAC-SHA256(key, `${webhook-id}.${webhook-timestamp}.${raw body}`)), the key being the base64-decoded part of your secret after `whsec_`. Compare in constant time.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ConversionCompletedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx within 15 s: delivered */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: Cambio disables the webhook */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookTestEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (`evt_…`): the same on every retry, so deduplicate on it
                 * @example evt_01JBZ6W1V7Q8R9S0T1A2V3W4X5
                 */
                "webhook-id": string;
                /**
                 * @description Unix seconds when this attempt was signed; refuse it if more than 5 minutes away from now
                 * @example 1767225600
                 */
                "webhook-timestamp": string;
                /**
                 * @description Space-separated `v1,<base64>` signatures: base64(HMAC-SHA256(key, `${webhook-id}.${webhook-timestamp}.${raw body}`)), the key being the base64-decoded part of your secret after `whsec_`. Compare in constant time.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookTestEvent"];
            };
        };
        responses: {
            /** @description Any 2xx within 15 s: delivered */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: Cambio disables the webhook */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
