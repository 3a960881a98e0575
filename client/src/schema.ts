/**
 * Generated from the service's OpenAPI document by openapi-typescript: do not edit.
 * Regenerate with `npm run client:generate` (against a running service: `-- --base-url URL`);
 * test/integration/client-schema.test.ts fails when this file is out of date with the document.
 */
export interface paths {
    "/v1/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Detailed health: workers, storage, kill switch */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/health/live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** 200 while the process is alive */
        get: operations["getHealthLive"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/health/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** 200 when workers and storage are up, 503 otherwise */
        get: operations["getHealthReady"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/health/safety": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** 200 when execution admission is safe, 503 while the kill switch halts dispatch */
        get: operations["getHealthSafety"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api_keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the account's API keys (newest first) */
        get: operations["listApiKeys"];
        put?: never;
        /** Create an API key; the raw key is returned only here */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api_keys/{key_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Deactivate an API key (not the one authenticating this call) */
        delete: operations["deleteApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api_keys/{key_id}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace a key: same label and mode, the old key is invalid at once */
        post: operations["rotateApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/credentials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Venues with stored credentials for the caller, in the mode of the calling key */
        get: operations["listCredentials"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/credentials/{venue}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Store (or replace) the credentials of the caller for a venue, encrypted at rest
         * @description Per-venue shape rules are in docs/credentials.md. Answers 200 whether the row is new or replaced. Only read and trade permissions should be granted on the venue; withdrawal must stay off.
         */
        post: operations["storeCredentials"];
        /** Delete the credentials of the caller for a venue */
        delete: operations["deleteCredentials"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's orders in the key's mode, newest first */
        get: operations["listOrders"];
        put?: never;
        /**
         * Submit an order; the smart order router splits it across venues
         * @description Idempotent per client on client_order_id (or the Idempotency-Key header): the same request returns the original order with 200, a different one 409. The order is durable before the answer; fills follow on the orders and fills WebSocket channels. Market orders default to ioc, limit orders to gtc (the remainder rests on one venue and fills as maker until filled or cancelled).
         */
        post: operations["submitOrder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/orders/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Size-aware fee, slippage and landed cost from the same router, without placing */
        post: operations["previewOrder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/orders/{node_order_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One order; expand=fills adds its fills */
        get: operations["getOrder"];
        put?: never;
        post?: never;
        /**
         * Cancel an order: every venue leg
         * @description Among regions an order homed on another node is cancelled there: this node asks its home node and answers with what it answered.
         */
        delete: operations["cancelOrder"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/fills": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's fills, newest first */
        get: operations["listFills"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/execution_graphs/{graph_id}/activate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Activate an armed graph (an order submitted with start_armed)
         * @description Among regions a graph homed on another node is activated there: this node asks its home node and answers with what it answered.
         */
        post: operations["activateGraph"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/parent_orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Legacy: the caller's orders as parent orders in the key's mode, newest first */
        get: operations["listParentOrders"];
        put?: never;
        /**
         * Legacy: submit a parent order (a market order through the smart order router)
         * @description A thin legacy form of POST /v1/orders with order_type market: side BUY/SELL is lowercased, client_order_id (or client_request_id when absent, or the Idempotency-Key header) is the idempotency key, shared with /v1/orders. The same request returns the original parent order with 200, a different one 409. parent_id is the node_order_id.
         */
        post: operations["submitParentOrder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/positions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Unified positions (fiat and crypto now) with NBBO marks and totals; a sandbox key sees the sandbox book */
        get: operations["getPositions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/positions/sync": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Refresh cost basis from venue trade history (background) */
        post: operations["syncPositions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/risk/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Server-sent events: `risk` with the risk read-out on every change (orders finishing, kill switch) */
        get: operations["streamRisk"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tca/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Server-sent events: `tca_report` after each order completes; filter with node_order_id */
        get: operations["streamTca"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/risk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Informational risk read-out: kill switch, limits, reservations, working orders, exposure */
        get: operations["getRisk"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sandbox/positions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Write sandbox positions (upsert by venue, kind and symbol, or replace them all)
         * @description One unit: every position is checked first, and one bad position refuses the call with 400 and writes nothing. The body may be up to 4 MiB (413 beyond). The positions are the sandbox account: GET /v1/positions with the sandbox key shows them, and sandbox orders trade from them at once.
         */
        post: operations["writeSandboxPositions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sandbox/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reset the sandbox account: working orders end, positions go, each venue with markets is seeded with the initial balance per quote asset
         * @description Makes the pending settings (PUT /v1/sandbox/settings) effective first: the balance seeded and the seed and fault knobs of the sandbox orders that follow.
         */
        post: operations["resetSandbox"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sandbox/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The sandbox settings the next reset makes effective (the defaults until set) */
        get: operations["getSandboxSettings"];
        /**
         * Change the sandbox settings; they take effect on the next reset
         * @description A setting left out keeps its pending value; `seed: null` goes back to the service seed.
         */
        put: operations["setSandboxSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/markets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prediction markets of one venue: filters, order, expand=outcomes, cursor pages
         * @description Status filters: active=true&closed=false trading only; true/true open, closed and settled; false/true resolved only; false/false every status on the ticker-style venue, trading on the token-style one. Walk with `cursor` = `next_cursor` until `has_more` is false; a cursor is only valid with the query that gave it.
         */
        get: operations["listMarkets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/settlement/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Settlement state of a prediction market: status, outcome, prices, the up/down underlying */
        get: operations["getSettlement"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/markets/{slug}/redeem": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Redeem the caller's resolved positions of a market (or of every market of an event)
         * @description ticker-style venue: `auto_settled` (the venue settles by itself; the positions are credited now); token-style venue: `relayer_submitted` (the credit lands asynchronously, then the positions are `redeemed`); `noop` when nothing resolved is held. A market not yet resolved is 409 MARKET_NOT_RESOLVED, and nothing changes.
         */
        post: operations["redeemMarket"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/{prediction_venue}/rewards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every token in a maker-rewards program now (the token-style venue)
         * @description Programs are read at most every 5 minutes; one that ends drops out at once, and current_spread is the book now.
         */
        get: operations["listRewards"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/{prediction_venue}/rewards/{token_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A token's maker-rewards program */
        get: operations["getRewards"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/wallets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's DEX wallets */
        get: operations["listWallets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/wallets/trading": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's trading wallet */
        get: operations["getTradingWallet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/wallets/default": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Alias of GET /v1/wallets/trading */
        get: operations["getDefaultWallet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/wallets/trading/create-managed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create the managed trading wallet (provisioning in the background, about 5 s)
         * @description A secp256k1 key is generated and sealed at rest; the simulated chains fund the wallet with gas and USDC on each chain. 409 while one exists or is provisioning.
         */
        post: operations["createManagedWallet"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/token-info": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every asset the service knows: symbol, name, decimals, and its contract on each chain */
        get: operations["getTokenInfo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/wallets/withdraw": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send tokens from the managed wallet to an external address */
        post: operations["withdrawFromWallet"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/market_data/pools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** DEX pools of a pair: state, the price a swap of the displayed size gets, gas */
        get: operations["getPools"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/deployments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's deployments with live edge data */
        get: operations["listDeployments"];
        put?: never;
        /**
         * Deploy a WASM algo on symbols and venues
         * @description The artifact is checked before anything is stored (valid WebAssembly, the five ABI callbacks and memory exported, imports only env.host_log_impl and env.host_mesh_send, memory within the cap). One instance runs per (target edge, symbol). With start_immediately it starts before the answer.
         */
        post: operations["createDeployment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/deployments/{deployment_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One deployment with live edge data */
        get: operations["getDeployment"];
        put?: never;
        post?: never;
        /**
         * Delete a deployment that is not running
         * @description Its orders and fills keep their lineage_deployment_id.
         */
        delete: operations["deleteDeployment"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/deployments/{deployment_id}/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start a created, stopped or failed deployment */
        post: operations["startDeployment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/deployments/{deployment_id}/stop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stop a deployment: algo_on_shutdown, then every order it has open is cancelled
         * @description Idempotent: a deployment that is not running is answered as it is.
         */
        post: operations["stopDeployment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/deployments/{deployment_id}/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A deployment's log lines (host_log_impl and the host's own), oldest first
         * @description The newest `limit` lines of a ring of 1,000 kept in memory; `deployment_logs:<id>` on /v1/stream follows them live.
         */
        get: operations["getDeploymentLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/analytics/execution": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your orders that ended in the window: counts and rates, fills and volume, ack / first-fill / completion latency, execution quality */
        get: operations["getExecutionAnalytics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/analytics/venues": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Per venue: legs sent, acknowledged, filled, rejected, rates, average ack latency, a composite quality score, by size */
        get: operations["getVenueAnalytics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/analytics/tca": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * TCA over your completed orders: notional-weighted averages, weighted percentiles, savings, win rate, provenance
         * @description Read from hourly aggregates kept as orders complete, so the window is whole UTC hours: from the hour holding `since` to the end of the hour holding `until`. Sandbox keys read sandbox orders only. Prediction orders are reported apart, in probability bps.
         */
        get: operations["getTcaAnalytics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/analytics/tca/venues": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Per-venue notional-weighted TCA attribution: each venue’s slices of your orders */
        get: operations["getTcaVenues"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/analytics/tca/timeseries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** TCA over time: the window in UTC-aligned intervals (1h, 4h, 1d) */
        get: operations["getTcaTimeseries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/analytics/tca/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Routing versions side by side over your own flow, with a confidence interval on each difference
         * @description An extension of the spec (the A/B view of routing versions 1-3). Compares the notional-weighted mean implementation shortfall of each version against version 1 and version 2.
         */
        get: operations["getTcaVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/analytics/tca/report": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A structured TCA report of the last week or month: headline figures against the period before, best and worst orders, per venue, routing version and symbol
         * @description The period is the 7 (week) or 30 (month) days ending at `until` (default now), in whole UTC hours; the previous period is the one of the same length just before it. Best and worst orders are ranked by what their shortfall cost in USD (shortfall x notional).
         */
        get: operations["getTcaReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/analytics/tca/quality": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** TCA coverage of the orders that ended in the window and how each was observed (direct, reconstructed, no benchmark, missing) */
        get: operations["getTcaQuality"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/analytics/market/{symbol}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** NBBO, mid, spread, aggregate bid and ask depth, imbalance, per-venue top of book */
        get: operations["getMarketAnalytics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/alerts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your alerts in this mode, oldest first */
        get: operations["listAlerts"];
        put?: never;
        /**
         * Create an alert: a price, spread, basis or PnL level, a fill, a rejected order, or a stale edge
         * @description An extension of the spec, which streams alerts (`/v1/alerts/stream`) without showing how they are made. At most 100 alerts per client and mode. A level condition already true when the alert is made fires at once.
         */
        post: operations["createAlert"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/alerts/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your alerts' firings in this mode, oldest first (the last 10000 are kept) */
        get: operations["listAlertEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/alerts/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Server-sent events: `alert` on each firing, resumable with Last-Event-ID; filter with edge_id, node_order_id, alert_id */
        get: operations["streamAlerts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/alerts/{alert_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One of your alerts */
        get: operations["getAlert"];
        put?: never;
        post?: never;
        /** Delete an alert (its past firings stay listed) */
        delete: operations["deleteAlert"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/kill_switch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Activate or release the global kill switch (admin only) */
        put: operations["setKillSwitch"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ws/ticket": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A short-lived, single-use ticket for /v1/stream?ticket=... */
        get: operations["getWsTicket"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Unified WebSocket (upgrade with ?ticket= or a bearer header)
         * @description Send {"subscribe": [channel, ...]} to subscribe; each call is answered by {"type":"subscribed"} and an {"type":"error"} frame for unknown channels. Data frames are {"type":"data","channel","ts_ns","data"}. Channels: system (service events: readiness changes, worker restarts, kill switch); orders (the caller's orders on every change (the OrderRest object)); fills (the caller's fills (FillRecord), each once, after it is durable); routing (the routing plan of each order: venues, levels, scores, why each venue was kept or dropped); tca (TCA of each completed order); funding (perpetual funding: each listing's rate when it changes (kind rate), and each funding payment on the caller's positions (kind accrual)); prices:<symbol> (NBBO on change: bid, ask, mid, bid_sz, ask_sz, spread_bps, ts_ns (append :perp for perpetuals)); book:<symbol> (merged book (20 levels) on change: bids, asks as [price, size], ts_ns (append :perp for perpetuals)); fair_price:<underlying> (fair price of an underlying on every recompute, coalesced to ~1 ms (BTC, ETH, SOL, XRP, DOGE, BNB, ADA, AVAX, LINK, SUI, LTC, DOT, BCH, ARB, UNI, OP, NEAR, ATOM)); deployment_logs:<deployment_id> (a deployment's log lines as they are written (DeploymentLogLine); an extension).
         */
        get: operations["openStream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ws/new_markets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prediction markets as they are listed (WebSocket; upgrade with ?ticket= or a bearer header)
         * @description One JSON text frame per event. On connect the last 128 events are replayed, oldest first, then events stream live, each once. A frame is a listing row (expanded: one per binary market) with kind "new_market" and observed_at_ns; its figures are null or 0.
         */
        get: operations["openNewMarketsStream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ws/market_resolved": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prediction market resolutions (WebSocket; upgrade with ?ticket= or a bearer header)
         * @description One JSON text frame per event. On connect the last 128 events are replayed, oldest first, then events stream live, each once. A frame: kind "market_resolved", venue, event_id (parent_event_id and outcome_name for a candidate of a multi-outcome event), slug, question, winning_outcome (Yes/No), winning_token_id, losing_token_id, resolved_at_ns, observed_at_ns. Every resolution is stored before it is sent.
         */
        get: operations["openMarketResolvedStream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/symbols": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Tradeable instruments with instrument type and per-venue availability */
        get: operations["listSymbols"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/edges": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Venue edges: connected, the symbols each streams, last seen */
        get: operations["listEdges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/fair_price": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Underlyings with a fair price (at most 256) */
        get: operations["listFairPrice"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/fair_price/{underlying}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Cross-venue fair price of an underlying (USD, USDT and USDC pairs collapse) */
        get: operations["getFairPrice"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/fees": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Fee schedules (linear for exchanges) with their formulas */
        get: operations["getFees"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/quotes/{symbol}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Single-symbol quote: NBBO, per-venue quotes, merged book */
        get: operations["getQuote"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/quotes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** NBBO and per-venue quotes for several symbols, filtered by NBBO age */
        get: operations["listQuotes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/quotes_batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Quotes for up to 2000 symbols; per-symbol failures are entries, not errors */
        post: operations["quotesBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/price_history/{symbol}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Price history: CEX symbols from the trade tape, downsampled to fidelity_secs (0 = ticks); prediction legs from their venue */
        get: operations["getPriceHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/data/ticks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Most recent trades of a symbol from the tape */
        get: operations["getRecentTicks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/data/ticks/range": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Historical trades of a symbol in [from, to) */
        get: operations["getTicksRange"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/market/funding-rates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Current funding rates across perpetual venues */
        get: operations["getFundingRates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/funding_history/{symbol}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Historical funding rates of a perpetual symbol, per venue */
        get: operations["getFundingHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/health/edges": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Drift between the expected venue list (EXPECTED_VENUES) and the connected edges */
        get: operations["getHealthEdges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/health/feeds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Per-symbol freshness, ring utilisation, venue health, tape */
        get: operations["getHealthFeeds"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/data/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Data engine health: tape writes, retention, lag */
        get: operations["getDataHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/data/recon": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Reconciliation state of the caller's orders: orders in doubt, the last reconcile per venue edge, drift between our fills and the venues' reports
         * @description Per client and mode (a sandbox key sees its sandbox orders only). Orders in doubt are the working orders whose leg or cancel answer was lost (UNCONFIRMED, or reconciling); the last reconcile per edge is the client's router's since it started, or a restart's closing of a working order; drift compares, per venue, the sum of our fills' fee_1e9 and qty_1e8 with the venue's reported cumulative fee and quantity of the legs, over the most recent `limit` orders (docs/data-engine.md).
         */
        get: operations["getDataRecon"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/data/signals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Short-horizon signals per symbol: mid return, realised volatility, book imbalance, spread, trade-flow imbalance, fair-price basis
         * @description Computed from what the service holds: the consolidated book (quote cache), its NBBO mid sampled every 500 ms for up to 1,024 s, the trade tape over the horizon and the fair price of the underlying. Volatility is per sqrt-second in bps and annualised over a 365-day year (docs/data-engine.md).
         */
        get: operations["getDataSignals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/data/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Trades per symbol over the last hour and the tape totals */
        get: operations["getDataStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI 3.1 document */
        get: operations["getOpenApi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description The error envelope of every non-2xx response */
        ErrorBody: {
            error: {
                /** @description machine-readable code, e.g. VALIDATION_ERROR, NOT_FOUND */
                code: string;
                message: string;
                /** @description from X-Request-Id or generated */
                request_id: string;
                details: {
                    field: string;
                    message: string;
                }[];
                /** @description only for AMBIGUOUS_MULTI_OUTCOME: candidate labels */
                outcomes?: string[];
                /** @description only for AMBIGUOUS_MULTI_OUTCOME: candidate ids parallel to outcomes, to retry with */
                outcome_token_ids?: string[];
            };
            /** @description only for AMBIGUOUS_MULTI_OUTCOME: error.code again */
            code?: string;
            /** @description only for AMBIGUOUS_MULTI_OUTCOME: error.message again */
            message?: string;
            /** @description only for AMBIGUOUS_MULTI_OUTCOME: error.request_id again */
            request_id?: string;
            /** @description only for AMBIGUOUS_MULTI_OUTCOME: candidate labels */
            outcomes?: string[];
            /** @description only for AMBIGUOUS_MULTI_OUTCOME: candidate ids parallel to outcomes, to retry with */
            outcome_token_ids?: string[];
        };
        KillSwitchState: {
            active: boolean;
            reason: string | null;
            /** @description null while it was never set */
            updated_at_ms: number | null;
            /** @description client id of the admin who set it */
            updated_by: string | null;
        };
        Health: {
            /** @enum {string} */
            status: "ok" | "degraded" | "halted";
            version: string;
            uptime_ms: number;
            ready: boolean;
            safe: boolean;
            workers: {
                thread: number;
                /**
                 * @description `actor`: edges, books, routers; `algo`: strategy deployments only (an algo worker restarting does not make the service unready)
                 * @enum {string}
                 */
                role: "actor" | "algo";
                /** @enum {string} */
                state: "starting" | "up" | "restarting" | "stopped";
                restarts: number;
                thread_id: number | null;
            }[];
            storage: {
                open: boolean;
                schema_version: number;
                /** @description false while the disk is below its free-space reserve, and for 10 s after an LMDB commit failed (I/O error): not ready, writes refused with 503 */
                writable: boolean;
                /** @description why writes are refused, while they are */
                reason: string | null;
                /** @description failed LMDB commits since start */
                write_failures: number;
                /** @description free space on the data directory's filesystem (null: the filesystem does not say) */
                free_bytes: number | null;
                /** @description the reserve below which writes are refused (STORAGE_MIN_FREE_MB) */
                min_free_bytes: number;
            };
            kill_switch: components["schemas"]["KillSwitchState"];
            ws_connections: number;
            /** @description stored live-venue keys the venue reports able to withdraw (GET /v1/credentials names them to their client) */
            unsafe_credentials: number;
        };
        ApiKeyRecord: {
            id: string;
            /** @description display prefix; the raw key is never stored */
            key_prefix: string;
            label: string | null;
            is_active: boolean;
            is_sandbox: boolean;
            last_used_at: string | null;
            /** Format: date-time */
            created_at: string;
        };
        IssuedApiKey: {
            id: string;
            key_prefix: string;
            /** @description shown once, at creation or rotation */
            raw_key: string;
            label: string | null;
            is_sandbox: boolean;
            /** Format: date-time */
            created_at: string;
        };
        CreateApiKeyReq: {
            label?: string | null;
            /** @description ignored (forced true) when called with a sandbox key */
            sandbox?: boolean;
        };
        CredentialVenues: {
            /** @description venues with stored credentials in the mode of the calling key, sorted */
            venues: string[];
            /** @description of those, the live venues that report the stored key can withdraw (probed in the background after each store and at start); grant read and trade only */
            unsafe: string[];
        };
        CredentialsStored: {
            venue: string;
            /** @constant */
            status: "stored";
        };
        StoreCredentialsReq: {
            /** @description key id or address; '' for polymarket without L2 credentials */
            api_key: string;
            /** @description secret (at most 512 characters) or PEM private key (at most 8192 bytes); '' for polymarket without L2 credentials */
            api_secret: string;
            /** @description required by okx and kucoin; the vault address on hyperliquid; the L2 passphrase on polymarket */
            passphrase?: string | null;
            /** @description venue-specific, at most 16384 bytes as JSON; polymarket: signer_private_key (required), proxy_address, builder */
            extra_json?: {
                [key: string]: unknown;
            } | null;
        };
        CredentialsDeleted: {
            venue: string;
            /** @constant */
            deleted: true;
        };
        OrderConstraintsRest: {
            /** @description Execution horizon: above 0, the order (not FOK or GTC) is routed in slices until filled or the horizon passes */
            horizon_ms?: number | null;
            /** @description Highest price a market buy's legs may take */
            max_price_1e9?: number | null;
            /** @description Most of each displayed level one sweep may take, in bps (500 = 5 %) */
            participation_limit_bps?: number | null;
            /** @description Time between slices of a sliced order: 2 s, 500 ms (default), 100 ms */
            urgency?: ("low" | "medium" | "high") | null;
        };
        /** @description Transaction cost analysis of a completed order (docs/positions-and-tca.md) */
        TcaReport: {
            /** @description null when nothing filled */
            achieved_vwap_1e9: number | null;
            arrival_mid_1e9: number;
            filled_qty_1e8: number;
            /** @description filled / requested */
            fill_ratio: number;
            /** @description side-adjusted (positive = cost), price only, vs the arrival mid */
            implementation_shortfall_bps: number;
            /** @description half the arrival spread */
            spread_cost_bps: number;
            /** @description shortfall beyond the half spread */
            impact_bps: number;
            fee_bps: number;
            /** @description shortfall + fee */
            total_cost_bps: number;
            fees_usd_1e9: number;
            notional_usd_1e9: number;
            best_single_venue: {
                venue: string;
                /** @description its average price for the whole requested qty, walking its book at arrival */
                avg_price_1e9: number;
                /** @description its taker fee for this order */
                fee_bps: number;
            } | null;
            /** @description benchmark all-in cost minus ours (positive = the split did better); null without a benchmark or fills */
            savings_vs_best_single_venue_bps: number | null;
            /** @description the same in USD over the filled qty; null when the bps figure is */
            savings_usd_1e9: number | null;
            execution_time_ms: number;
            /** @description null when nothing filled */
            time_to_first_fill_ms: number | null;
            /** @description per venue, largest qty first */
            venues: {
                venue: string;
                qty_1e8: number;
                vwap_1e9: number;
                fee_1e9: number;
                /** @description qty / filled qty */
                share: number;
            }[];
            is_prediction: boolean;
            /** @description 0 for spot and perp */
            arrival_implied_prob_bps: number;
            /** @description 0 for spot and perp; null for a prediction order with no fill */
            achieved_implied_prob_bps: number | null;
            /** @description 0 for spot and perp */
            probability_slippage_bps: number;
        };
        /** @description One venue leg of the order, with its own status and fills */
        ChildOrder: {
            child_id: string;
            venue: string;
            edge_id: string;
            qty_1e8: number;
            /** @description the leg's worst acceptable price */
            limit_price_1e9: number | null;
            filled_qty_1e8: number;
            /**
             * @description `gtc` on a leg resting a limit order's remainder; absent on legs that take displayed liquidity (IOC)
             * @enum {string}
             */
            time_in_force?: "ioc" | "gtc";
            /**
             * @description `resting`: on the venue's book, filling as maker
             * @enum {string}
             */
            status: "sent" | "resting" | "filled" | "partial" | "cancelled" | "rejected" | "unconfirmed";
            /** @description why the leg ended short of filled */
            reason: string | null;
            fee_1e9: number;
            /** @description the cumulative fee the venue reports for the leg (its last fill's) */
            venue_reported_cum_fee_1e9: number;
            /** @description the leg's cumulative filled quantity as the venue last reported it; absent until it reports */
            venue_reported_cum_qty_1e8?: number;
            /** @description when the leg was sent to its venue */
            sent_unix_ns?: number;
            /** @description when the venue's answer to it came: minus sent_unix_ns, its ack latency */
            answered_unix_ns?: number;
        };
        /** @description The fee of one fill by component, USD 1e9 */
        FeeBreakdown: {
            commission_1e9: number;
            lp_fee_1e9: number;
            gas_1e9: number;
            priority_fee_1e9: number;
            mev_tip_1e9: number;
            funding_1e9: number;
            rebate_1e9: number;
            hop_fees_1e9: number;
            commission_asset: string;
        };
        FillRecord: {
            /** @description database key; fills list newest first by it */
            id: number;
            fill_id: string;
            node_order_id: string;
            venue: string;
            symbol: string;
            /** @enum {string} */
            side: "buy" | "sell";
            /**
             * @description taken from the parent order
             * @enum {string}
             */
            instrument_type: "spot" | "perp" | "prediction";
            qty_1e8: number;
            price_1e9: number;
            /** @description USD 1e9; negative for a rebate */
            fee_1e9: number;
            /** @description when the service booked the fill */
            ts_unix_ns: number;
            commission_asset: string;
            /** @description the venue's timestamp of the trade */
            exchange_ts_ns: number;
            execution_region: string;
            fee_breakdown: components["schemas"]["FeeBreakdown"];
            is_maker: boolean;
            /** @description the maker rate charged; null on a taker fill */
            maker_fee_bps_applied: number | null;
            /** @description the taker rate charged; null on a maker fill */
            taker_fee_bps_applied: number | null;
            /** @description venue trade id */
            trade_id: string;
            /** @description cumulative commission the venue reports for the leg at this fill */
            venue_reported_cum_fee_1e9: number;
            lineage_deployment_id: string | null;
            /** @description the fee in commission_asset units x 1e8 when that is not the quote: a DEX swap's gas, in ETH */
            commission_qty_1e8?: number;
        };
        OrderRest: {
            node_order_id: string;
            client_id: string;
            client_order_id: string;
            is_sandbox: boolean;
            /** @enum {string} */
            side: "buy" | "sell";
            /** @description trading pair, canonical form */
            symbol: string;
            /** @enum {string} */
            instrument_type: "spot" | "perp" | "prediction";
            /** @description requested quantity */
            qty_1e8: number;
            /** @description filled so far */
            filled_qty_1e8: number;
            /** @enum {string} */
            order_type: "market" | "limit";
            /** @enum {string} */
            time_in_force: "ioc" | "gtc" | "fok";
            /** @description the request's limit price; null when it gave none */
            limit_price_1e9: number | null;
            /**
             * @description canonical status (docs/order-states.md)
             * @enum {string}
             */
            status: "ACCEPTED" | "RUNNING" | "PARTIAL" | "ACTIVE" | "COMPLETED" | "CANCELLED" | "REJECTED" | "UNCONFIRMED" | "UNRESOLVED" | "WAITING";
            /** @enum {string} */
            execution_type: "graph" | "armed" | "adopted";
            /** @description venue-side state: not_sent, sent, open (resting), filled, closed, unknown (a leg in doubt) */
            venue_state: string;
            /**
             * @description separate from the status
             * @enum {string}
             */
            reconciliation_state: "in_sync" | "reconciling" | "reconciled" | "unknown";
            /**
             * @description engine lifecycle, separate from the status
             * @enum {string}
             */
            engine_phase: "admitted" | "routed" | "dispatching" | "working" | "settling" | "done";
            created_unix_ns: number;
            updated_unix_ns: number;
            constraints: components["schemas"]["OrderConstraintsRest"] | null;
            /** @description pre-trade fee estimate, USD 1e9; null until routed */
            expected_fee_1e9: number | null;
            /** @description pre-trade fee estimate; null until routed or when nothing was planned */
            expected_fee_bps: number | null;
            /** @description why the order ended short of COMPLETED, e.g. no_route, insufficient_balance, risk_notional_cap, cancelled, kill_switch */
            failure_class: string | null;
            failure_reason: string | null;
            /** @description exchange timestamp of the first fill */
            first_fill_ts_ns: number | null;
            /** @description owning execution graph (activate an armed order with it) */
            graph_id: string | null;
            graph_name: string | null;
            home_region: string | null;
            node_id: string | null;
            /** @description limit or max price sent to the venues; null for a market order with no cap */
            placed_price_1e9: number | null;
            pool_id: string | null;
            /** @description a DEX order: the trading wallet it swaps from */
            wallet_id?: string;
            /** @description set when the order completes */
            tca: components["schemas"]["TcaReport"] | null;
            /** @description parent arrival to first fill */
            time_to_first_fill_ms: number | null;
            lineage_deployment_id: string | null;
            /**
             * @description assigned from node_order_id
             * @enum {integer}
             */
            routing_version: 1 | 2 | 3;
            /** @description the request's `venue` */
            forced_venue: string | null;
            /** @description consolidated mid when routed; null before, or when there was none */
            arrival_mid_1e9: number | null;
            children: components["schemas"]["ChildOrder"][];
            /** @description the fills with ?expand=fills on GET /v1/orders/{node_order_id}; null otherwise */
            fills: components["schemas"]["FillRecord"][] | null;
        };
        OrderRequest: {
            client_order_id: string;
            symbol?: string;
            instrument?: {
                symbol: string;
                /**
                 * @description auto-classified from the symbol when absent (a prediction leg by ticker, slug, token id or event URL)
                 * @enum {string}
                 */
                type?: "spot" | "perp" | "prediction";
            };
            /** @enum {string} */
            side: "buy" | "sell";
            qty_1e8: number;
            /** @enum {string} */
            order_type: "market" | "limit";
            limit_price_1e9?: number;
            /**
             * @description market defaults to ioc, limit to gtc (what does not cross rests on the venues)
             * @enum {string}
             */
            time_in_force?: "ioc" | "gtc" | "fok";
            /**
             * @description forces single-venue execution (a chain id: that chain's pools)
             * @enum {string}
             */
            venue?: "binance" | "coinbase" | "kraken" | "okx" | "bybit" | "kucoin" | "bitstamp" | "hyperliquid" | "kalshi" | "polymarket" | "dex-eth" | "dex-arb";
            /** @description DEX orders: `<signer_backend>:<address>` of the managed trading wallet (the default when omitted); `connected:<address>` (a browser wallet) is refused on an API session */
            wallet_id?: string;
            constraints?: components["schemas"]["OrderConstraintsRest"] | null;
            /** @description park as an armed graph until POST /v1/execution_graphs/{graph_id}/activate */
            start_armed?: boolean;
            /** @description prediction markets: route the outcome across both venues, on the named market and its equivalents (the same leg, or the other leg where the question is inverted), wherever it is cheaper after fees */
            cross_venue_equivalents?: boolean;
        };
        /** @description The smart order router's decision for one order (docs/sor.md) */
        RoutingPlan: {
            /** @description the order routed; `preview` for a preview */
            node_order_id: string;
            /** @enum {integer} */
            routing_version: 1 | 2 | 3;
            /** @enum {string} */
            side: "buy" | "sell";
            /** @enum {string} */
            order_type: "market" | "limit";
            requested_qty_1e8: number;
            /** @description null for market orders */
            limit_price_1e9: number | null;
            forced_venue: string | null;
            /** @description the reference of every cost in bps; 1 when there was no mid */
            arrival_mid_1e9: number;
            decided_ns: number;
            /** @description cheapest first */
            allocations: {
                venue: string;
                edge_id: string;
                qty_1e8: number;
                /** @description worst price to accept: the last level taken */
                limit_price_1e9: number;
                /** @description expected VWAP of the child (floor) */
                avg_price_1e9: number;
                /** @description expected notional, USD 1e9 (floor) */
                notional_1e9: number;
                fee_bps: number;
                /** @description USD 1e9; negative for a rebate */
                expected_fee_1e9: number;
                /** @description quantity-weighted cost of its levels */
                avg_cost_bps: number;
                levels: {
                    price_1e9: number;
                    qty_1e8: number;
                    /** @description expected all-in cost of the level when taken, vs the arrival mid (positive = worse) */
                    cost_bps: number;
                }[];
            }[];
            /** @description one per venue listing the symbol */
            candidates: {
                venue: string;
                edge_id: string;
                /** @description passed candidate selection */
                kept: boolean;
                /** @description why it is not used; null when used or simply not needed */
                reason: ("forced_venue_mismatch" | "not_listed" | "offline" | "no_credentials" | "stale_book" | "empty_book" | "insufficient_balance" | "below_min_qty" | "below_min_notional") | null;
                /** @description cost of its top level before any allocation; null when not kept */
                best_cost_bps: number | null;
                /** @description null when not kept */
                cost: {
                    /** @description taker for market orders, maker for limit orders */
                    fee_bps: number;
                    latency_bps: number;
                    freshness_bps: number;
                    /** @description routing versions 2 and 3, else 0 */
                    adverse_selection_bps: number;
                    /** @description routing versions 2 and 3, else 0 */
                    reject_bps: number;
                    /** @description routing versions 2 and 3, else 0 */
                    impact_bps_per_unit: number;
                } | null;
                allocated_qty_1e8: number;
                /** @description what the sweep gave it before a minimum-size drop */
                dropped_qty_1e8: number;
            }[];
            planned_qty_1e8: number;
            /** @description requested - planned */
            unfilled_qty_1e8: number;
            expected_notional_1e9: number;
            expected_fee_1e9: number;
            /** @description null when nothing is planned */
            expected_fee_bps: number | null;
            /** @description null when nothing is planned */
            expected_avg_price_1e9: number | null;
            /** @description VWAP vs arrival mid, side-adjusted (positive = worse); null when nothing is planned */
            expected_slippage_bps: number | null;
            /** @description null when nothing is planned */
            expected_cost_bps: number | null;
        };
        OrderPreview: {
            plan: components["schemas"]["RoutingPlan"];
            /** @description expected notional plus fees for a buy, minus fees for a sell, USD 1e9; null when nothing is planned */
            landed_cost_1e9: number | null;
        };
        OrderPreviewRequest: {
            client_order_id?: string;
            symbol?: string;
            instrument?: {
                symbol: string;
                /**
                 * @description auto-classified from the symbol when absent (a prediction leg by ticker, slug, token id or event URL)
                 * @enum {string}
                 */
                type?: "spot" | "perp" | "prediction";
            };
            /** @enum {string} */
            side: "buy" | "sell";
            qty_1e8: number;
            /** @enum {string} */
            order_type: "market" | "limit";
            limit_price_1e9?: number;
            /**
             * @description market defaults to ioc, limit to gtc (what does not cross rests on the venues)
             * @enum {string}
             */
            time_in_force?: "ioc" | "gtc" | "fok";
            /**
             * @description forces single-venue execution (a chain id: that chain's pools)
             * @enum {string}
             */
            venue?: "binance" | "coinbase" | "kraken" | "okx" | "bybit" | "kucoin" | "bitstamp" | "hyperliquid" | "kalshi" | "polymarket" | "dex-eth" | "dex-arb";
            /** @description DEX orders: `<signer_backend>:<address>` of the managed trading wallet (the default when omitted); `connected:<address>` (a browser wallet) is refused on an API session */
            wallet_id?: string;
            constraints?: components["schemas"]["OrderConstraintsRest"] | null;
            /** @description park as an armed graph until POST /v1/execution_graphs/{graph_id}/activate */
            start_armed?: boolean;
            /** @description prediction markets: route the outcome across both venues, on the named market and its equivalents (the same leg, or the other leg where the question is inverted), wherever it is cheaper after fees */
            cross_venue_equivalents?: boolean;
        };
        /** @description What the venues show of a live account's working orders */
        VenueView: {
            /** @description false when a venue did not answer: an empty list then does not mean nothing rests */
            all_succeeded: boolean;
            as_of_unix_ns: number;
            venues: {
                venue: string;
                edge_id: string;
                ok: boolean;
                error: string | null;
                /** @description the account's legs resting on the venue's book now */
                resting_child_ids: string[];
                /** @description legs the engine has resting there that the venue does not show */
                missing_on_venue: string[];
            }[];
        };
        ListOrdersResp: {
            /** @constant */
            scope: "client";
            /** @description the `region` query parameter, else global */
            region: string;
            /** @description newest first; `fills` is always null here */
            orders: components["schemas"]["OrderRest"][];
            /** @description orders under the status filter */
            total: number;
            limit: number;
            has_more: boolean;
            /** @description pass as `after` for the next page */
            next_cursor: string | null;
            /** @description the legacy `offset` query parameter, echoed */
            offset: number | null;
            sources: {
                /** @enum {string} */
                source: "engine" | "history_db" | "region";
                /** @description source `region`: another region whose orders this listing read from the regions’ stream (docs/regions.md) */
                region?: string;
                /** @description false: that region could not be reached (or not yet read to its end): its orders here may be behind */
                complete: boolean;
            }[];
            /** @description orders by status over the listing scope (symbol and history filters apply; status, page and limit do not); statuses with none are left out */
            counts: {
                ACCEPTED?: number;
                RUNNING?: number;
                PARTIAL?: number;
                ACTIVE?: number;
                COMPLETED?: number;
                CANCELLED?: number;
                REJECTED?: number;
                UNCONFIRMED?: number;
                UNRESOLVED?: number;
                WAITING?: number;
            };
            /** @description only on a live account's first page without a symbol filter */
            venue_view: components["schemas"]["VenueView"] | null;
        };
        CancelOrderResp: {
            node_order_id: string;
            /**
             * @description the status after the cancel; a terminal order answers with its own
             * @enum {string}
             */
            status: "ACCEPTED" | "RUNNING" | "PARTIAL" | "ACTIVE" | "COMPLETED" | "CANCELLED" | "REJECTED" | "UNCONFIRMED" | "UNRESOLVED" | "WAITING";
        };
        FillsPage: {
            /** @description newest first */
            fills: components["schemas"]["FillRecord"][];
            total: number;
            limit: number;
            has_more: boolean;
            /** @description pass as `after` for the next page */
            next_cursor: string | null;
        };
        ParentOrder: {
            /** @description the node_order_id of the order */
            parent_id: string;
            client_id: string;
            client_order_id: string;
            /** @enum {string} */
            side: "BUY" | "SELL";
            symbol: string;
            qty_1e8: number;
            filled_qty_1e8: number;
            /** @enum {string} */
            status: "ACCEPTED" | "RUNNING" | "COMPLETED" | "CANCELLED" | "FAILED";
            constraints: {
                max_price_1e9: number | null;
                /** @enum {string} */
                urgency: "UNSPECIFIED" | "low" | "medium" | "high";
                horizon_ms: number | null;
                participation_limit_bps: number | null;
            };
            created_unix_ns: number;
            updated_unix_ns: number;
        };
        ParentOrderConstraints: {
            max_price_1e9?: number | null;
            urgency?: ("UNSPECIFIED" | "low" | "medium" | "high") | null;
            horizon_ms?: number | null;
            participation_limit_bps?: number | null;
        };
        ParentOrderRequest: {
            /** @description the idempotency key when client_order_id is absent */
            client_request_id?: string;
            /** @description the idempotency key; this or client_request_id is required */
            client_order_id?: string;
            /** @enum {string} */
            side: "BUY" | "SELL";
            symbol: string;
            qty_1e8: number;
            /** @description if given, must be the caller's client id (403 otherwise) */
            client_id?: string;
            constraints?: components["schemas"]["ParentOrderConstraints"] | null;
        };
        ParentOrderList: {
            orders: components["schemas"]["ParentOrder"][];
            total: number;
            limit: number;
            offset: number;
        };
        /** @description Tagged by `kind`: fiat cash by code, spot crypto by symbol (stablecoins too), perpetuals, event contracts */
        Instrument: {
            /** @constant */
            kind: "fiat";
            code: string;
        } | {
            /** @constant */
            kind: "crypto";
            symbol: string;
        } | {
            /** @constant */
            kind: "perp";
            symbol: string;
            base: string;
        } | {
            /** @constant */
            kind: "event_contract";
            market_slug: string;
            outcome: string;
            token_id: string | null;
            expiry_ts: number | null;
        };
        /** @description Tagged by `state`; spot rows are only `active` or `closed` */
        PositionLifecycle: {
            /** @constant */
            state: "active";
        } | {
            /** @constant */
            state: "closed";
        } | {
            /** @constant */
            state: "resolved";
            /** @description ns */
            resolved_at: number;
            economic_value_usd_1e9: number;
        } | {
            /** @constant */
            state: "redeemed";
            /** @description ns */
            resolved_at: number;
            economic_value_usd_1e9: number;
            /** @description ns */
            redeemed_at: number;
            cash_received_usd_1e9: number;
        };
        Position: {
            /** @description database key */
            id: number;
            venue: string;
            instrument: components["schemas"]["Instrument"];
            /** @description signed; negative for short perps and event contracts; exact at any size: may exceed 2^53 */
            qty_1e8: number;
            /** @description reserved for working orders; exact at any size: may exceed 2^53 */
            locked_qty_1e8: number;
            /** @description qty minus locked; exact at any size: may exceed 2^53 */
            available_qty_1e8: number;
            /** @description weighted-average entry price; exact at any size: may exceed 2^53 */
            entry_price_usd_1e9: number;
            /** @description the mark: $1 for USD and stablecoins, the consolidated mid, else the entry price; absent on fiat rows; exact at any size: may exceed 2^53 */
            current_price_usd_1e9?: number;
            /** @description qty x current price / 1e8; exact at any size: may exceed 2^53 */
            current_value_usd_1e9: number;
            /** @description exact at any size: may exceed 2^53 */
            unrealized_pnl_usd_1e9: number;
            /** @description exact at any size: may exceed 2^53 */
            realized_pnl_usd_1e9: number;
            /** @description exact at any size: may exceed 2^53 */
            fees_usd_1e9: number;
            lifecycle: components["schemas"]["PositionLifecycle"];
            /** @description true for fiat and spot crypto */
            transferable: boolean;
            settled: boolean;
            /** @description only on event-contract rows: null before settlement */
            settled_mark_usd_1e9?: number | null;
            /** @description perp rows: initial margin locked on the venue's quote row, at the maximum leverage; exact at any size: may exceed 2^53 */
            initial_margin_usd_1e9?: number;
            /** @description perp rows: |qty| x mark x maintenance rate (half the initial rate); exact at any size: may exceed 2^53 */
            maintenance_margin_usd_1e9?: number;
            /** @description perp rows: the leverage the margin is locked at (0 for a stated position) */
            leverage?: number;
            /** @description perp rows: the mark at which the position's isolated equity meets maintenance; null when none reaches it */
            liquidation_price_1e9?: number | null;
            /**
             * @description perp rows
             * @enum {string}
             */
            margin_state?: "ok" | "below_maintenance";
            /** @description perp rows: funding received (+) or paid (-) so far; included in realized PnL; exact at any size: may exceed 2^53 */
            funding_usd_1e9?: number;
            is_sandbox: boolean;
        };
        /** @description Aggregates over the returned, filtered rows */
        PositionTotals: {
            /** @description sum of current values; exact at any size: may exceed 2^53 */
            nav_usd_1e9: number;
            /** @description fiat rows and stablecoin rows at $1; exact at any size: may exceed 2^53 */
            cash_usd_1e9: number;
            /** @description exact at any size: may exceed 2^53 */
            unrealized_pnl_usd_1e9: number;
            /** @description exact at any size: may exceed 2^53 */
            realized_pnl_usd_1e9: number;
            /** @description exact at any size: may exceed 2^53 */
            fees_usd_1e9: number;
            num_positions: number;
        };
        PositionsResp: {
            /** @description in row id order */
            positions: components["schemas"]["Position"][];
            totals: components["schemas"]["PositionTotals"];
            as_of_ns: number;
        };
        PositionsSyncResp: {
            synced: boolean;
            message: string;
        };
        /** @description Informational risk read-out of the caller's account in the key's mode */
        RiskReadout: {
            kill_switch: components["schemas"]["KillSwitchState"];
            limits: {
                /** @description per-order notional cap (pre-trade risk) */
                max_order_notional_usd_1e9: number;
            };
            /** @description orders not yet terminal */
            working_orders: number;
            /** @description ledger rows holding reservations for working orders */
            reserved: {
                venue: string;
                instrument: components["schemas"]["Instrument"];
                /** @description exact at any size: may exceed 2^53 */
                locked_qty_1e8: number;
            }[];
            /** @description exact at any size: may exceed 2^53 */
            nav_usd_1e9: number;
            /** @description exact at any size: may exceed 2^53 */
            cash_usd_1e9: number;
            /** @description sum of the absolute values of the crypto rows; exact at any size: may exceed 2^53 */
            gross_exposure_usd_1e9: number;
            as_of_ns: number;
        };
        KillSwitchChange: {
            kill_switch: components["schemas"]["KillSwitchState"];
            as_of_ns: number;
        };
        RiskEvent: {
            /** @constant */
            event: "risk";
            /** @description the full read-out on connect and when an order finishes; only the kill switch (and as_of_ns) when it changes */
            data: components["schemas"]["RiskReadout"] | components["schemas"]["KillSwitchChange"];
        };
        /** @description The last event when the server ends the stream (credential revoked or expired); the response then ends */
        SseEnd: {
            /** @constant */
            event: "end";
            data: {
                /** @description 4401 */
                code: number;
                /** @description e.g. `api key revoked`, `token expired` */
                reason: string;
            };
        };
        TcaEvent: {
            node_order_id: string;
            tca: components["schemas"]["TcaReport"];
        };
        TcaReportEvent: {
            /** @constant */
            event: "tca_report";
            data: components["schemas"]["TcaEvent"];
        };
        SandboxPositionsResp: {
            /** @description positions written */
            written: number;
            /** @description positions deleted first (replace) */
            deleted: number;
        };
        SandboxPositionReq: {
            /**
             * @description a venue id
             * @enum {string}
             */
            venue: "binance" | "coinbase" | "kraken" | "okx" | "bybit" | "kucoin" | "bitstamp" | "hyperliquid" | "kalshi" | "polymarket";
            /**
             * @description fiat and crypto hold assets, perp a perpetual, event_contract an outcome
             * @enum {string}
             */
            kind: "fiat" | "crypto" | "perp" | "event_contract";
            /** @description fiat: a fiat code (USD, EUR, GBP); crypto: an asset code (BTC, USDT); perp: the full symbol (BTC-USDT); event_contract: <ticker>:YES or <ticker>:NO, or a conditional token id of at least 30 digits (outcome YES; the NO token id for a NO position) */
            symbol: string;
            /** @description decimal native units, at most 8 decimal places; >= 0 except for perps (negative: short) */
            qty: number;
            /** @description decimal USD per unit, at most 9 decimal places; default 1.0 for fiat and USD stablecoins, 0.0 otherwise */
            entry_price_usd?: number;
        };
        SandboxPositionsReq: {
            /** @description at most 10000; written in order, a later one for the same position wins */
            positions: components["schemas"]["SandboxPositionReq"][];
            /**
             * @description true: every sandbox position of the account is deleted first; false: upsert by (venue, kind, symbol)
             * @default false
             */
            replace?: boolean;
        };
        SandboxResetResp: {
            /** @constant */
            reset: true;
            /** @description USD of each quote asset seeded on each venue (the settings this reset made effective) */
            initial_balance_usd: number;
            /** @description venues that got balances (those listing spot or perp markets), in venue order */
            venues_seeded: string[];
            /** @description working sandbox orders the reset ended (cancelled, or finished while it waited) */
            orders_ended: number;
        };
        /** @description none: an empty body, or none at all */
        SandboxResetReq: Record<string, never>;
        /** @description What the next reset makes effective (defaults until set) */
        SandboxSettings: {
            /** @description USD of each quote asset a reset seeds on each venue, at most 8 decimal places */
            initial_balance_usd: number;
            /** @description seed of the sandbox venues' fault draws; null: the service's SANDBOX_SEED */
            seed: number | null;
            /** @description added to each venue's own latency before a sandbox child meets the book */
            latency_ms: number;
            /** @description share of sandbox children the venue refuses */
            reject_rate: number;
            /** @description share of IOC children filled only in part */
            partial_fill_rate: number;
            /** @description share of venue answers lost on the way back (then reconciled) */
            disconnect_rate: number;
            /** @description a cancel races a last fill */
            cancel_race: boolean;
        };
        /** @description A setting left out keeps its pending value; all take effect on the next reset */
        SandboxSettingsReq: {
            /** @description USD of each quote asset a reset seeds on each venue, at most 8 decimal places */
            initial_balance_usd: number;
            /** @description seed of the sandbox venues' fault draws; null: the service's SANDBOX_SEED */
            seed?: number | null;
            /** @description added to each venue's own latency before a sandbox child meets the book */
            latency_ms?: number;
            /** @description share of sandbox children the venue refuses */
            reject_rate?: number;
            /** @description share of IOC children filled only in part */
            partial_fill_rate?: number;
            /** @description share of venue answers lost on the way back (then reconciled) */
            disconnect_rate?: number;
            /** @description a cancel races a last fill */
            cancel_race?: boolean;
        };
        /** @description One listing row; expanded rows (`expand=outcomes`) add the parent and outcome fields, which binary events leave out */
        Market: {
            /** @enum {string} */
            venue: "kalshi" | "polymarket";
            /** @description the market slug (token-style) or market ticker (ticker-style); the event slug or event ticker on an unexpanded multi-outcome row */
            slug: string;
            /** @description what quotes, orders and channels take: `polymarket:<yes token id>` or `<ticker>:YES`; the event identifier on an unexpanded multi-outcome row */
            symbol: string;
            question: string;
            /** @description the rules text */
            description: string;
            /** @description `Yes`, `No` on a binary row; candidate labels on an unexpanded multi-outcome row */
            outcomes: string[];
            /** @description parallel to outcomes: the YES and NO token ids, or each candidate YES token id */
            outcome_token_ids: string[];
            yes_token_id: string | null;
            no_token_id: string | null;
            /** @description opaque per venue; do not compare across venues */
            event_id: string;
            neg_risk: boolean;
            /** @description USD */
            volume_24h: number;
            /** @description USD */
            volume_total: number;
            /** @description null on an unexpanded multi-outcome row or an empty side */
            best_yes_bid: number | null;
            /** @description null on an unexpanded multi-outcome row or an empty side */
            best_yes_ask: number | null;
            /** @description token-style: 1 - best_yes_ask */
            best_no_bid: number | null;
            /** @description token-style: 1 - best_yes_bid */
            best_no_ask: number | null;
            /** @description (yes_ask - yes_bid) / yes_mid, a ratio */
            spread_pct: number | null;
            /** Format: date-time */
            end_date: string;
            /** Format: date-time */
            start_date: string;
            url: string;
            tags: string[];
            /**
             * @description the venue lifecycle phase (ticker-style words; the token-style venue has no initialized or settled)
             * @enum {string}
             */
            status: "initialized" | "open" | "closed" | "determined" | "settled";
            /** @description the same outcome on the other prediction venue; never on placeholder rows */
            equivalents: {
                /** @enum {string} */
                venue: "kalshi" | "polymarket";
                symbol: string;
                /** @description `same`: YES there is YES here; `complement`: YES there is NO here */
                relation: string;
            }[];
            parent_event_id?: string;
            parent_slug?: string;
            /** @description null iff placeholder */
            outcome_name?: string | null;
            raw_outcome_name?: string;
            is_placeholder_outcome?: boolean;
            /** @description 0-based upstream position */
            outcome_index?: number;
        };
        MarketsPage: {
            markets: components["schemas"]["Market"][];
            /** @description rows on this page (binary rows under expand=outcomes, not events) */
            count: number;
            /** @enum {string} */
            venue: "kalshi" | "polymarket";
            has_more: boolean;
            /** @description pass back as `cursor`; null on the last page */
            next_cursor: string | null;
        };
        Settlement: {
            slug: string;
            question: string;
            yes_token_id: string;
            no_token_id: string;
            /** @description null on the ticker-style venue */
            condition_id: string | null;
            neg_risk: boolean;
            /**
             * @description open: trading; resolving: window ended, settlement in flight; resolved: outcome set, payout final; settled: ticker-style only, determination and settlement complete
             * @enum {string}
             */
            status: "open" | "resolving" | "resolved" | "settled";
            resolved_outcome: ("Yes" | "No") | null;
            /** @description determined_event (ticker-style), price_feed (up/down), oracle */
            outcome_source: string;
            /** @description the mid before resolution; 1 or 0 after */
            yes_price: number | null;
            no_price: number | null;
            event_start_s: number;
            event_end_s: number;
            /** @description the rules the outcome is read by */
            resolution_source: string;
            /** @description token-style up/down markets only, unless underlying=false */
            underlying?: {
                symbol: string;
                source: string;
                anchor_price_usd: number | null;
                final_price_usd: number | null;
                agrees_with_settlement: boolean | null;
                points: {
                    ts_s: number;
                    price_usd: number;
                }[];
            };
        };
        RedeemResponse: {
            /** @enum {string} */
            mode: "auto_settled" | "relayer_submitted" | "noop";
            venue: string;
            slug: string;
            condition_id: string | null;
            token_ids: string[] | null;
            note: string;
        };
        RewardsConfig: {
            token_id: string;
            condition_id: string;
            /** @description contracts a resting order must show to earn */
            rewards_min_size: number;
            /** @description furthest from the midpoint an order earns, in price units (0.035 = 3.5 cents) */
            rewards_max_spread: number;
            /** @description the market's daily pool, shared by its makers */
            rate_per_day_usdc: number;
            /** @description best ask minus best bid now, in price units; null when a side is empty */
            current_spread: number | null;
            reward_end_unix_s: number;
        };
        RewardsList: {
            /** @constant */
            venue: "polymarket";
            /** @description every token in a program now, the richest programs first */
            rewards: components["schemas"]["RewardsConfig"][];
            count: number;
            /** @description when the set of programs was last read (at most every 5 minutes) */
            refreshed_at_unix_s: number;
        };
        Wallet: {
            /** @description `<signer_backend>:<address>`, e.g. managed:0xAbC... */
            wallet_id: string;
            /** @description EIP-55 checksummed */
            address: string;
            /** @constant */
            scope: "dex";
            /**
             * @description service-managed DEX signer
             * @constant
             */
            role: "trading";
            signer_backend: string;
            /**
             * @description provisioning for about 5 s after creation, then ready
             * @enum {string}
             */
            status: "provisioning" | "ready";
            /** @description can sign DEX orders headlessly (once ready) */
            can_trade_dex: boolean;
            /** @description deprecated alias of can_trade_dex, to be removed */
            can_trade_api: boolean;
            label: string;
            created_at_ms: number;
        };
        CreateManagedWalletRequest: {
            /** @description a name for the wallet */
            label: string;
        };
        TokenInfo: {
            tokens: {
                symbol: string;
                name: string;
                /** @description native decimals on its chain or ledger */
                decimals: number;
                /** @description empty for an asset traded on CEX venues only */
                chains: {
                    /** @enum {string} */
                    chain: "dex-eth" | "dex-arb";
                    chain_id: number;
                    /** @description EIP-55 contract address; null for the chain's native currency */
                    contract: string | null;
                }[];
            }[];
            count: number;
        };
        WithdrawResponse: {
            /** @constant */
            status: "submitted";
            wallet_id: string;
            chain: string;
            token: string;
            /** @description as asked, normalized */
            amount: string;
            amount_1e8: number;
            from: string;
            /** @description checksummed */
            recipient: string;
            /** @description keccak-256 of the transfer the wallet signed */
            tx_hash: string;
            /** @description the wallet's balance of the token on the chain after the transfer, qty_1e8 (decimal text: it can pass 2^53) */
            remaining_1e8: string;
        };
        WithdrawRequest: {
            /** @enum {string} */
            chain: "dex-eth" | "dex-arb";
            /** @description a token the wallet holds on that chain: ETH (gas), USDC, ... */
            token: string;
            /** @description decimal text, > 0, at most 8 decimal places (and no more than the token has) */
            amount: string;
            /** @description EVM address; mixed case must carry a valid EIP-55 checksum */
            recipient: string;
        };
        GasContext: {
            chain: string;
            chain_id: number;
            /** @description wei per gas unit */
            base_fee_native: number;
            /** @description wei per gas unit */
            priority_fee_native: number;
            /** @description of one pool swap */
            estimated_gas_units: number;
            /** @description USD price of the gas currency x 1e9 */
            native_price_1e9: number;
            /** @description of one swap at these fees */
            estimated_cost_usd: number;
            last_update_ns: number;
        };
        DexPool: {
            /** @description the pool pair, chain-suffixed: BASE-QUOTE-CHAIN */
            symbol: string;
            pool_address: string;
            pair_index: number;
            protocol: string;
            protocol_id: number;
            chain: string;
            fee_bps: number;
            /** @description average price (quote per base) a swap selling bid_size gets now */
            bid: number;
            /** @description average price a swap buying ask_size pays now */
            ask: number;
            /** @description base units, about $10,000 */
            bid_size: number;
            ask_size: number;
            /** @description Q64.96, exact integer */
            sqrt_price_x96: string;
            tick: number;
            /** @description active liquidity, exact integer */
            liquidity: string;
            block_number: number;
            gas_context: components["schemas"]["GasContext"];
            updated_ms: number;
        };
        Deployment: {
            deployment_id: string;
            name: string | null;
            is_sandbox: boolean;
            symbols: string[];
            /** @description as asked; null = every capable edge */
            venues: string[] | null;
            /** @enum {string} */
            instrument_type: "spot" | "perp";
            /** @enum {string} */
            status: "created" | "starting" | "running" | "stopping" | "stopped" | "failed";
            /** @description why it failed */
            reason: string | null;
            mesh_group: string | null;
            mesh_label: string | null;
            bundle_id: string | null;
            config: unknown;
            artifact: {
                sha256: string;
                bytes: number;
                /** @description exports algo_on_mesh */
                mesh_extension: boolean;
            };
            created_at_ms: number;
            started_at_ms: number | null;
            stopped_at_ms: number | null;
            /** @description starts so far (the epoch in its client_order_ids) */
            starts: number;
            /** @description live edge data, one entry per instance (edge x symbol) */
            edges: {
                edge_id: string;
                venue: string;
                symbol: string;
                /** @description the L2Book symbol_id this instance reads */
                symbol_id: number;
                mesh_label: string;
                /** @description the edge's feed is up (false while stopped) */
                connected: boolean;
                /** @description the instance's position from its own fills (AlgoState) */
                position_1e8: number;
                avg_entry_1e9: number;
                realized_pnl_1e9: number;
                /** @description at the edge mid when the book was last seen */
                unrealized_pnl_1e9: number;
                orders_sent: number;
                fills: number;
                filled_qty_1e8: number;
                rejects: number;
                cancels: number;
                /** @description book callbacks */
                books: number;
                /** @description when the algo last saw a book */
                last_book_ms: number | null;
                open_orders: number;
            }[];
            /** @description while running: WASM memory, callbacks so far, the slowest callback */
            runtime: {
                memory_bytes: number;
                callbacks: number;
                max_callback_us: number;
                /** @description over the last 4,096 samples of each, microseconds */
                latency: {
                    /** @description the edge published a book change -> algo_on_book began */
                    book_to_callback_us: {
                        /** @description samples so far */
                        n: number;
                        p50: number;
                        p99: number;
                    };
                    /** @description -> the order it returned was taken by the client's router */
                    book_to_router_us: {
                        /** @description samples so far */
                        n: number;
                        p50: number;
                        p99: number;
                    };
                    /** @description -> the router answered it (admitted, durable) */
                    book_to_ack_us: {
                        /** @description samples so far */
                        n: number;
                        p50: number;
                        p99: number;
                    };
                    /** @description the algo host took the book change -> the router took the order (the host's own path) */
                    host_to_router_us: {
                        /** @description samples so far */
                        n: number;
                        p50: number;
                        p99: number;
                    };
                };
            } | null;
        };
        CreateDeploymentRequest: {
            /** @description canonical symbols, e.g. BTC-USDT; `symbol_id` in the L2Book the algo reads is the index here */
            symbols: string[];
            name?: string | null;
            venue?: string | null;
            venues?: string[] | null;
            /**
             * @description which of a venue's edges the algo runs on (default spot)
             * @enum {string}
             */
            instrument_type?: "spot" | "perp";
            start_immediately?: boolean;
            artifact_base64?: string | null;
            bundle_id?: string | null;
            /** @description any JSON, kept with the record */
            config?: unknown;
            deployment_id?: string | null;
            mesh_group?: string | null;
            mesh_label?: string | null;
        };
        DeploymentLogLine: {
            deployment_id: string;
            ts_ms: number;
            /** @enum {string} */
            level: "trace" | "debug" | "info" | "warn" | "error";
            /** @description the instance's edge; empty for the host's own lines */
            edge_id: string;
            text: string;
        };
        ExecutionAnalytics: {
            /** @description start of the window read, ISO 8601 (a whole UTC hour) */
            since: string;
            /** @description end of the window read, exclusive, ISO 8601 (a whole UTC hour) */
            until: string;
            symbol: string | null;
            is_sandbox: boolean;
            routing_version: number | null;
            orders: {
                /** @description orders that ended in the window (working orders count once they end) */
                submitted: number;
                /** @description of those, orders with at least one fill */
                filled: number;
                completed: number;
                cancelled: number;
                rejected: number;
                unresolved: number;
                /** @description filled / submitted */
                fill_rate: number | null;
                /** @description rejected / submitted */
                reject_rate: number | null;
            };
            fills: {
                count: number;
                volume_usd_1e9: number;
            };
            /** @description ack: the order's legs left -> the first venue's answer; first_fill: order created -> its first fill; completion: order created -> it ended (ms resolution) */
            latency: {
                /** @description ms; DDSketch, 1% relative error */
                ack: {
                    p50: number | null;
                    p95: number | null;
                    p99: number | null;
                };
                /** @description ms; DDSketch, 1% relative error */
                first_fill: {
                    p50: number | null;
                    p95: number | null;
                    p99: number | null;
                };
                /** @description ms; DDSketch, 1% relative error */
                completion: {
                    p50: number | null;
                    p95: number | null;
                    p99: number | null;
                };
            };
            execution_quality: {
                /** @description notional-weighted implementation shortfall (price orders) */
                avg_slippage_bps: number | null;
                /** @description notional-weighted savings against the best single venue */
                avg_savings_bps: number | null;
                total_savings_usd_1e9: number;
                avg_execution_time_ms: number | null;
                /** @description prediction orders, probability bps, apart */
                avg_prediction_slippage_bps: number | null;
            };
        };
        VenueAnalytics: {
            /** @description start of the window read, ISO 8601 (a whole UTC hour) */
            since: string;
            /** @description end of the window read, exclusive, ISO 8601 (a whole UTC hour) */
            until: string;
            symbol: string | null;
            is_sandbox: boolean;
            /** @description most legs first */
            venues: {
                venue: string;
                /** @description legs sent to the venue */
                sent: number;
                /** @description legs the venue answered (not lost) */
                acked: number;
                filled: number;
                rejected: number;
                /** @description acked / sent */
                ack_rate: number | null;
                /** @description filled / sent */
                fill_rate: number | null;
                /** @description rejected / sent */
                reject_rate: number | null;
                avg_ack_latency_ms: number | null;
                /** @description 100 x (0.5 fill_rate + 0.3 (1 - reject_rate) + 0.2 / (1 + avg_ack_latency_ms / 10)); docs/analytics.md */
                quality_score: number | null;
                /** @description by the leg's notional: small < $10,000 <= medium < $100,000 <= large */
                sizes: {
                    small: {
                        sent: number;
                        filled: number;
                        rejected: number;
                        /** @description filled / sent */
                        fill_rate: number | null;
                    };
                    medium: {
                        sent: number;
                        filled: number;
                        rejected: number;
                        /** @description filled / sent */
                        fill_rate: number | null;
                    };
                    large: {
                        sent: number;
                        filled: number;
                        rejected: number;
                        /** @description filled / sent */
                        fill_rate: number | null;
                    };
                };
            }[];
        };
        TcaSummary: {
            /** @description completed orders with fills (for a venue: those that filled on it) */
            orders: number;
            /** @description their filled notional, USD 1e9: the weight of every average */
            notional_usd_1e9: number;
            /** @description notional-weighted; positive = cost against the arrival mid (probability bps for prediction orders) */
            avg_implementation_shortfall_bps: number | null;
            /** @description notional-weighted half spread at arrival */
            avg_spread_cost_bps: number | null;
            /** @description notional-weighted fees / notional */
            avg_fee_bps: number | null;
            /** @description notional-weighted shortfall beyond the half spread */
            avg_impact_bps: number | null;
            /** @description notional-weighted savings against the best single venue, over benchmarked orders; positive = the split did better */
            avg_savings_bps: number | null;
            /** @description notional-weighted percentiles of the shortfall from a DDSketch: within 1% (relative) of a shortfall at that weighted rank */
            shortfall_percentiles_bps: {
                /** @description weighted */
                p50: number | null;
                /** @description weighted */
                p75: number | null;
                /** @description weighted */
                p95: number | null;
                /** @description weighted */
                p99: number | null;
            };
            /** @description sum of savings in USD 1e9 over benchmarked orders */
            total_savings_usd_1e9: number;
            fees_usd_1e9: number;
            /** @description orders with a best-single-venue benchmark */
            benchmarked_orders: number;
            /** @description share of benchmarked orders with positive savings */
            win_rate: number | null;
            /** @description how the TCA of these orders was observed */
            provenance: {
                /** @description the order's fills and arrival mid observed as they came */
                direct: number;
                /** @description legs reconciled with the venues (an answer lost, a restart) */
                reconstructed: number;
                /** @description observed directly, but no single venue could have filled it to compare against */
                no_benchmark: number;
            };
        };
        TcaAnalytics: {
            /** @description start of the window read, ISO 8601: the UTC hour holding the `since` asked for */
            since: string;
            /** @description end of the window read (exclusive), ISO 8601: the UTC hour after the one holding `until` */
            until: string;
            symbol: string | null;
            /** @description set: each order's slice on this venue (its fills there) */
            venue: string | null;
            routing_version: number | null;
            is_sandbox: boolean;
            tca: components["schemas"]["TcaSummary"];
            /** @description prediction-market orders, in probability bps: kept apart, never averaged with price bps */
            prediction: {
                /** @description completed orders with fills (for a venue: those that filled on it) */
                orders: number;
                /** @description their filled notional, USD 1e9: the weight of every average */
                notional_usd_1e9: number;
                /** @description notional-weighted; positive = cost against the arrival mid (probability bps for prediction orders) */
                avg_implementation_shortfall_bps: number | null;
                /** @description notional-weighted half spread at arrival */
                avg_spread_cost_bps: number | null;
                /** @description notional-weighted fees / notional */
                avg_fee_bps: number | null;
                /** @description notional-weighted shortfall beyond the half spread */
                avg_impact_bps: number | null;
                /** @description notional-weighted savings against the best single venue, over benchmarked orders; positive = the split did better */
                avg_savings_bps: number | null;
                /** @description notional-weighted percentiles of the shortfall from a DDSketch: within 1% (relative) of a shortfall at that weighted rank */
                shortfall_percentiles_bps: {
                    /** @description weighted */
                    p50: number | null;
                    /** @description weighted */
                    p75: number | null;
                    /** @description weighted */
                    p95: number | null;
                    /** @description weighted */
                    p99: number | null;
                };
                /** @description sum of savings in USD 1e9 over benchmarked orders */
                total_savings_usd_1e9: number;
                fees_usd_1e9: number;
                /** @description orders with a best-single-venue benchmark */
                benchmarked_orders: number;
                /** @description share of benchmarked orders with positive savings */
                win_rate: number | null;
                /** @description how the TCA of these orders was observed */
                provenance: {
                    /** @description the order's fills and arrival mid observed as they came */
                    direct: number;
                    /** @description legs reconciled with the venues (an answer lost, a restart) */
                    reconstructed: number;
                    /** @description observed directly, but no single venue could have filled it to compare against */
                    no_benchmark: number;
                };
                /** @constant */
                is_prediction: true;
            };
            /** @description relative error of the percentiles */
            sketch_relative_accuracy: number;
        };
        TcaVenues: {
            /** @description start of the window read, ISO 8601 (a whole UTC hour) */
            since: string;
            /** @description end of the window read, exclusive, ISO 8601 (a whole UTC hour) */
            until: string;
            symbol: string | null;
            is_sandbox: boolean;
            /** @description each venue's slices of the orders (its fills), largest notional first; savings stay with the orders (/v1/analytics/tca) */
            venues: {
                venue: string;
                share_of_notional: number;
                /** @description completed orders with fills (for a venue: those that filled on it) */
                orders: number;
                /** @description their filled notional, USD 1e9: the weight of every average */
                notional_usd_1e9: number;
                /** @description notional-weighted; positive = cost against the arrival mid (probability bps for prediction orders) */
                avg_implementation_shortfall_bps: number | null;
                /** @description notional-weighted half spread at arrival */
                avg_spread_cost_bps: number | null;
                /** @description notional-weighted fees / notional */
                avg_fee_bps: number | null;
                /** @description notional-weighted shortfall beyond the half spread */
                avg_impact_bps: number | null;
                /** @description notional-weighted savings against the best single venue, over benchmarked orders; positive = the split did better */
                avg_savings_bps: number | null;
                /** @description notional-weighted percentiles of the shortfall from a DDSketch: within 1% (relative) of a shortfall at that weighted rank */
                shortfall_percentiles_bps: {
                    /** @description weighted */
                    p50: number | null;
                    /** @description weighted */
                    p75: number | null;
                    /** @description weighted */
                    p95: number | null;
                    /** @description weighted */
                    p99: number | null;
                };
                /** @description sum of savings in USD 1e9 over benchmarked orders */
                total_savings_usd_1e9: number;
                fees_usd_1e9: number;
                /** @description orders with a best-single-venue benchmark */
                benchmarked_orders: number;
                /** @description share of benchmarked orders with positive savings */
                win_rate: number | null;
                /** @description how the TCA of these orders was observed */
                provenance: {
                    /** @description the order's fills and arrival mid observed as they came */
                    direct: number;
                    /** @description legs reconciled with the venues (an answer lost, a restart) */
                    reconstructed: number;
                    /** @description observed directly, but no single venue could have filled it to compare against */
                    no_benchmark: number;
                };
            }[];
        };
        TcaTimeseries: {
            /** @description start of the window read, ISO 8601 (a whole UTC hour) */
            since: string;
            /** @description end of the window read, exclusive, ISO 8601 (a whole UTC hour) */
            until: string;
            symbol: string | null;
            is_sandbox: boolean;
            /** @enum {string} */
            interval: "1h" | "4h" | "1d";
            /** @description intervals with completed orders, oldest first */
            points: {
                start: string;
                end: string;
                /** @description completed orders with fills (for a venue: those that filled on it) */
                orders: number;
                /** @description their filled notional, USD 1e9: the weight of every average */
                notional_usd_1e9: number;
                /** @description notional-weighted; positive = cost against the arrival mid (probability bps for prediction orders) */
                avg_implementation_shortfall_bps: number | null;
                /** @description notional-weighted half spread at arrival */
                avg_spread_cost_bps: number | null;
                /** @description notional-weighted fees / notional */
                avg_fee_bps: number | null;
                /** @description notional-weighted shortfall beyond the half spread */
                avg_impact_bps: number | null;
                /** @description notional-weighted savings against the best single venue, over benchmarked orders; positive = the split did better */
                avg_savings_bps: number | null;
                /** @description notional-weighted percentiles of the shortfall from a DDSketch: within 1% (relative) of a shortfall at that weighted rank */
                shortfall_percentiles_bps: {
                    /** @description weighted */
                    p50: number | null;
                    /** @description weighted */
                    p75: number | null;
                    /** @description weighted */
                    p95: number | null;
                    /** @description weighted */
                    p99: number | null;
                };
                /** @description sum of savings in USD 1e9 over benchmarked orders */
                total_savings_usd_1e9: number;
                fees_usd_1e9: number;
                /** @description orders with a best-single-venue benchmark */
                benchmarked_orders: number;
                /** @description share of benchmarked orders with positive savings */
                win_rate: number | null;
                /** @description how the TCA of these orders was observed */
                provenance: {
                    /** @description the order's fills and arrival mid observed as they came */
                    direct: number;
                    /** @description legs reconciled with the venues (an answer lost, a restart) */
                    reconstructed: number;
                    /** @description observed directly, but no single venue could have filled it to compare against */
                    no_benchmark: number;
                };
            }[];
        };
        TcaVersions: {
            /** @description start of the window read, ISO 8601 (a whole UTC hour) */
            since: string;
            /** @description end of the window read, exclusive, ISO 8601 (a whole UTC hour) */
            until: string;
            symbol: string | null;
            is_sandbox: boolean;
            /** @description routing versions 1-3 side by side, over your own flow */
            versions: {
                routing_version: number;
                /** @description notional-weighted mean (unrounded avg_implementation_shortfall_bps) */
                mean_shortfall_bps: number | null;
                /** @description weighted standard error of that mean (Kish effective sample size); null below two orders */
                standard_error_bps: number | null;
                /** @description completed orders with fills (for a venue: those that filled on it) */
                orders: number;
                /** @description their filled notional, USD 1e9: the weight of every average */
                notional_usd_1e9: number;
                /** @description notional-weighted; positive = cost against the arrival mid (probability bps for prediction orders) */
                avg_implementation_shortfall_bps: number | null;
                /** @description notional-weighted half spread at arrival */
                avg_spread_cost_bps: number | null;
                /** @description notional-weighted fees / notional */
                avg_fee_bps: number | null;
                /** @description notional-weighted shortfall beyond the half spread */
                avg_impact_bps: number | null;
                /** @description notional-weighted savings against the best single venue, over benchmarked orders; positive = the split did better */
                avg_savings_bps: number | null;
                /** @description notional-weighted percentiles of the shortfall from a DDSketch: within 1% (relative) of a shortfall at that weighted rank */
                shortfall_percentiles_bps: {
                    /** @description weighted */
                    p50: number | null;
                    /** @description weighted */
                    p75: number | null;
                    /** @description weighted */
                    p95: number | null;
                    /** @description weighted */
                    p99: number | null;
                };
                /** @description sum of savings in USD 1e9 over benchmarked orders */
                total_savings_usd_1e9: number;
                fees_usd_1e9: number;
                /** @description orders with a best-single-venue benchmark */
                benchmarked_orders: number;
                /** @description share of benchmarked orders with positive savings */
                win_rate: number | null;
                /** @description how the TCA of these orders was observed */
                provenance: {
                    /** @description the order's fills and arrival mid observed as they came */
                    direct: number;
                    /** @description legs reconciled with the venues (an answer lost, a restart) */
                    reconstructed: number;
                    /** @description observed directly, but no single venue could have filled it to compare against */
                    no_benchmark: number;
                };
            }[];
            comparisons: {
                routing_version: number;
                baseline_version: number;
                /** @description mean shortfall of routing_version minus the baseline: negative = routing_version cost less */
                difference_bps: number | null;
                /** @description 95% confidence interval of the difference (normal approximation, Welch standard error) */
                ci95_bps: {
                    low: number;
                    high: number;
                } | null;
                /** @description the interval excludes zero */
                significant: boolean;
            }[];
        };
        TcaPeriodReport: {
            /** @enum {string} */
            period: "week" | "month";
            /** @description start of the period, ISO 8601 (a whole UTC hour) */
            since: string;
            /** @description end of the period, exclusive */
            until: string;
            /** @description the period before, of the same length */
            previous: {
                since: string;
                until: string;
            };
            symbol: string | null;
            is_sandbox: boolean;
            headline: {
                /** @description orders with TCA (filled price orders) */
                orders: number;
                /** @description price orders that ended, filled or not */
                ended_orders: number;
                /** @description orders with a fill / ended orders */
                fill_rate: number | null;
                notional_usd_1e9: number;
                avg_implementation_shortfall_bps: number | null;
                /** @description notional-weighted, DDSketch 1% relative error */
                p95_shortfall_bps: number | null;
                avg_savings_bps: number | null;
                total_savings_usd_1e9: number;
                /** @description benchmarked orders with positive savings */
                win_rate: number | null;
                fees_usd_1e9: number;
                avg_fee_bps: number | null;
            };
            previous_headline: {
                /** @description orders with TCA (filled price orders) */
                orders: number;
                /** @description price orders that ended, filled or not */
                ended_orders: number;
                /** @description orders with a fill / ended orders */
                fill_rate: number | null;
                notional_usd_1e9: number;
                avg_implementation_shortfall_bps: number | null;
                /** @description notional-weighted, DDSketch 1% relative error */
                p95_shortfall_bps: number | null;
                avg_savings_bps: number | null;
                total_savings_usd_1e9: number;
                /** @description benchmarked orders with positive savings */
                win_rate: number | null;
                fees_usd_1e9: number;
                avg_fee_bps: number | null;
            };
            /** @description each headline figure against the previous period: orders, notional_usd, avg_implementation_shortfall_bps, p95_shortfall_bps, avg_savings_bps, win_rate, avg_fee_bps, total_savings_usd */
            comparison: {
                [key: string]: {
                    current: number | null;
                    previous: number | null;
                    /** @description current - previous */
                    change: number | null;
                    /** @description change / |previous|; null when the previous figure is zero or absent */
                    change_pct: number | null;
                };
            };
            /** @description the five orders whose shortfall cost least in USD (most negative first) */
            best_orders: {
                node_order_id: string;
                symbol: string;
                /** @enum {string} */
                side: "buy" | "sell";
                routing_version: number;
                /** @description the UTC hour it completed in, ms */
                hour_ms: number;
                notional_usd_1e9: number;
                shortfall_bps: number;
                /** @description shortfall x notional: what the shortfall cost in USD 1e9 (negative: better than the arrival mid) */
                shortfall_cost_usd_1e9: number;
                savings_bps: number | null;
            }[];
            /** @description the five orders whose shortfall cost most in USD */
            worst_orders: {
                node_order_id: string;
                symbol: string;
                /** @enum {string} */
                side: "buy" | "sell";
                routing_version: number;
                /** @description the UTC hour it completed in, ms */
                hour_ms: number;
                notional_usd_1e9: number;
                shortfall_bps: number;
                /** @description shortfall x notional: what the shortfall cost in USD 1e9 (negative: better than the arrival mid) */
                shortfall_cost_usd_1e9: number;
                savings_bps: number | null;
            }[];
            /** @description per venue (its slices of the orders), largest notional first */
            venues: {
                venue: string;
                share_of_notional: number;
                /** @description completed orders with fills (for a venue: those that filled on it) */
                orders: number;
                /** @description their filled notional, USD 1e9: the weight of every average */
                notional_usd_1e9: number;
                /** @description notional-weighted; positive = cost against the arrival mid (probability bps for prediction orders) */
                avg_implementation_shortfall_bps: number | null;
                /** @description notional-weighted half spread at arrival */
                avg_spread_cost_bps: number | null;
                /** @description notional-weighted fees / notional */
                avg_fee_bps: number | null;
                /** @description notional-weighted shortfall beyond the half spread */
                avg_impact_bps: number | null;
                /** @description notional-weighted savings against the best single venue, over benchmarked orders; positive = the split did better */
                avg_savings_bps: number | null;
                /** @description notional-weighted percentiles of the shortfall from a DDSketch: within 1% (relative) of a shortfall at that weighted rank */
                shortfall_percentiles_bps: {
                    /** @description weighted */
                    p50: number | null;
                    /** @description weighted */
                    p75: number | null;
                    /** @description weighted */
                    p95: number | null;
                    /** @description weighted */
                    p99: number | null;
                };
                /** @description sum of savings in USD 1e9 over benchmarked orders */
                total_savings_usd_1e9: number;
                fees_usd_1e9: number;
                /** @description orders with a best-single-venue benchmark */
                benchmarked_orders: number;
                /** @description share of benchmarked orders with positive savings */
                win_rate: number | null;
                /** @description how the TCA of these orders was observed */
                provenance: {
                    /** @description the order's fills and arrival mid observed as they came */
                    direct: number;
                    /** @description legs reconciled with the venues (an answer lost, a restart) */
                    reconstructed: number;
                    /** @description observed directly, but no single venue could have filled it to compare against */
                    no_benchmark: number;
                };
            }[];
            routing_versions: {
                routing_version: number;
                /** @description completed orders with fills (for a venue: those that filled on it) */
                orders: number;
                /** @description their filled notional, USD 1e9: the weight of every average */
                notional_usd_1e9: number;
                /** @description notional-weighted; positive = cost against the arrival mid (probability bps for prediction orders) */
                avg_implementation_shortfall_bps: number | null;
                /** @description notional-weighted half spread at arrival */
                avg_spread_cost_bps: number | null;
                /** @description notional-weighted fees / notional */
                avg_fee_bps: number | null;
                /** @description notional-weighted shortfall beyond the half spread */
                avg_impact_bps: number | null;
                /** @description notional-weighted savings against the best single venue, over benchmarked orders; positive = the split did better */
                avg_savings_bps: number | null;
                /** @description notional-weighted percentiles of the shortfall from a DDSketch: within 1% (relative) of a shortfall at that weighted rank */
                shortfall_percentiles_bps: {
                    /** @description weighted */
                    p50: number | null;
                    /** @description weighted */
                    p75: number | null;
                    /** @description weighted */
                    p95: number | null;
                    /** @description weighted */
                    p99: number | null;
                };
                /** @description sum of savings in USD 1e9 over benchmarked orders */
                total_savings_usd_1e9: number;
                fees_usd_1e9: number;
                /** @description orders with a best-single-venue benchmark */
                benchmarked_orders: number;
                /** @description share of benchmarked orders with positive savings */
                win_rate: number | null;
                /** @description how the TCA of these orders was observed */
                provenance: {
                    /** @description the order's fills and arrival mid observed as they came */
                    direct: number;
                    /** @description legs reconciled with the venues (an answer lost, a restart) */
                    reconstructed: number;
                    /** @description observed directly, but no single venue could have filled it to compare against */
                    no_benchmark: number;
                };
            }[];
            /** @description largest notional first */
            symbols: {
                symbol: string;
                /** @description completed orders with fills (for a venue: those that filled on it) */
                orders: number;
                /** @description their filled notional, USD 1e9: the weight of every average */
                notional_usd_1e9: number;
                /** @description notional-weighted; positive = cost against the arrival mid (probability bps for prediction orders) */
                avg_implementation_shortfall_bps: number | null;
                /** @description notional-weighted half spread at arrival */
                avg_spread_cost_bps: number | null;
                /** @description notional-weighted fees / notional */
                avg_fee_bps: number | null;
                /** @description notional-weighted shortfall beyond the half spread */
                avg_impact_bps: number | null;
                /** @description notional-weighted savings against the best single venue, over benchmarked orders; positive = the split did better */
                avg_savings_bps: number | null;
                /** @description notional-weighted percentiles of the shortfall from a DDSketch: within 1% (relative) of a shortfall at that weighted rank */
                shortfall_percentiles_bps: {
                    /** @description weighted */
                    p50: number | null;
                    /** @description weighted */
                    p75: number | null;
                    /** @description weighted */
                    p95: number | null;
                    /** @description weighted */
                    p99: number | null;
                };
                /** @description sum of savings in USD 1e9 over benchmarked orders */
                total_savings_usd_1e9: number;
                fees_usd_1e9: number;
                /** @description orders with a best-single-venue benchmark */
                benchmarked_orders: number;
                /** @description share of benchmarked orders with positive savings */
                win_rate: number | null;
                /** @description how the TCA of these orders was observed */
                provenance: {
                    /** @description the order's fills and arrival mid observed as they came */
                    direct: number;
                    /** @description legs reconciled with the venues (an answer lost, a restart) */
                    reconstructed: number;
                    /** @description observed directly, but no single venue could have filled it to compare against */
                    no_benchmark: number;
                };
            }[];
            /** @description prediction orders in probability bps, apart */
            prediction: {
                /** @description completed orders with fills (for a venue: those that filled on it) */
                orders: number;
                /** @description their filled notional, USD 1e9: the weight of every average */
                notional_usd_1e9: number;
                /** @description notional-weighted; positive = cost against the arrival mid (probability bps for prediction orders) */
                avg_implementation_shortfall_bps: number | null;
                /** @description notional-weighted half spread at arrival */
                avg_spread_cost_bps: number | null;
                /** @description notional-weighted fees / notional */
                avg_fee_bps: number | null;
                /** @description notional-weighted shortfall beyond the half spread */
                avg_impact_bps: number | null;
                /** @description notional-weighted savings against the best single venue, over benchmarked orders; positive = the split did better */
                avg_savings_bps: number | null;
                /** @description notional-weighted percentiles of the shortfall from a DDSketch: within 1% (relative) of a shortfall at that weighted rank */
                shortfall_percentiles_bps: {
                    /** @description weighted */
                    p50: number | null;
                    /** @description weighted */
                    p75: number | null;
                    /** @description weighted */
                    p95: number | null;
                    /** @description weighted */
                    p99: number | null;
                };
                /** @description sum of savings in USD 1e9 over benchmarked orders */
                total_savings_usd_1e9: number;
                fees_usd_1e9: number;
                /** @description orders with a best-single-venue benchmark */
                benchmarked_orders: number;
                /** @description share of benchmarked orders with positive savings */
                win_rate: number | null;
                /** @description how the TCA of these orders was observed */
                provenance: {
                    /** @description the order's fills and arrival mid observed as they came */
                    direct: number;
                    /** @description legs reconciled with the venues (an answer lost, a restart) */
                    reconstructed: number;
                    /** @description observed directly, but no single venue could have filled it to compare against */
                    no_benchmark: number;
                };
                /** @constant */
                is_prediction: true;
            };
        };
        TcaQuality: {
            /** @description start of the window read, ISO 8601 (a whole UTC hour) */
            since: string;
            /** @description end of the window read, exclusive, ISO 8601 (a whole UTC hour) */
            until: string;
            symbol: string | null;
            is_sandbox: boolean;
            /** @description orders that ended in the window, every kind */
            ended_orders: number;
            /** @description of those, orders with at least one fill */
            filled_orders: number;
            /** @description filled orders with a TCA report (price and prediction) */
            with_tca: number;
            /** @description filled orders with no TCA (no arrival mid to measure against) */
            missing: number;
            /** @description with_tca / filled_orders */
            coverage: number | null;
            /** @description orders with TCA and a best-single-venue benchmark */
            benchmarked: number;
            /** @description benchmarked / with_tca */
            benchmark_coverage: number | null;
            provenance: {
                /** @description fills and arrival mid observed as they came, benchmarked */
                direct: number;
                /** @description legs reconciled with the venues after a lost answer or a restart */
                reconstructed: number;
                /** @description observed directly, no single venue to compare against */
                no_benchmark: number;
            };
        };
        MarketAnalytics: {
            symbol: string;
            nbbo: {
                bid: number;
                ask: number;
                bid_size: number;
                ask_size: number;
            };
            /** @description 0 when the consolidated book is crossed */
            mid: number;
            /** @description the best bid above the best ask across venues (each venue moves on its own); mid and spread_bps are then 0 and spread negative */
            crossed: boolean;
            /** @description ask - bid, in the quote currency; negative when crossed */
            spread: number;
            spread_bps: number;
            depth_levels: number;
            /** @description base quantity on the first `depth_levels` bid levels of the merged book */
            bid_depth: number;
            ask_depth: number;
            /** @description the same in the quote currency */
            bid_depth_notional: number;
            ask_depth_notional: number;
            /** @description (bid_depth - ask_depth) / (bid_depth + ask_depth): positive = more bids */
            imbalance: number;
            /** @description top of book per venue */
            venues: {
                [key: string]: {
                    bid: number;
                    ask: number;
                    bid_size: number;
                    ask_size: number;
                    age_ms: number;
                };
            };
            updated_ms: number;
        };
        Alert: {
            alert_id: string;
            /**
             * @description price: NBBO mid beyond `threshold` in `direction`; spread_bps: NBBO spread in bps; basis_bps: fair-price basis of `underlying`; fill: a fill of `node_order_id` or `symbol` (any of yours when neither); order_rejected: an order rejected; pnl_below: total PnL (realised + unrealised, USD) below `threshold`; edge_stale: `edge_id` disconnected or silent for more than `threshold` seconds (default 5)
             * @enum {string}
             */
            kind: "price" | "spread_bps" | "basis_bps" | "fill" | "order_rejected" | "pnl_below" | "edge_stale";
            symbol: string | null;
            underlying: string | null;
            node_order_id: string | null;
            edge_id: string | null;
            direction: ("above" | "below") | null;
            threshold: number | null;
            label: string | null;
            once: boolean;
            /**
             * @description fired: a one-shot alert that has fired (it stays listed until deleted)
             * @enum {string}
             */
            status: "active" | "fired";
            /** @description false while a repeating alert waits for its condition to turn false before it can fire again */
            armed: boolean;
            fired_count: number;
            /** @description ISO 8601 */
            created_at: string;
            last_fired_at: string | null;
            is_sandbox: boolean;
        };
        CreateAlertRequest: {
            /** @description price: NBBO mid beyond `threshold` in `direction`; spread_bps: NBBO spread in bps; basis_bps: fair-price basis of `underlying`; fill: a fill of `node_order_id` or `symbol` (any of yours when neither); order_rejected: an order rejected; pnl_below: total PnL (realised + unrealised, USD) below `threshold`; edge_stale: `edge_id` disconnected or silent for more than `threshold` seconds (default 5) */
            kind: string;
            symbol?: string;
            underlying?: string;
            node_order_id?: string;
            edge_id?: string;
            /** @description 'above' or 'below' (spread_bps default above) */
            direction?: string;
            /** @description a decimal like the quote fields: a price in quote units (price), bps (spread_bps, basis_bps), USD (pnl_below), seconds (edge_stale) */
            threshold?: number;
            /**
             * @description true: fires once, then stays `fired`; false: fires again each time its condition turns true after being seen false
             * @default true
             */
            once?: boolean;
            label?: string;
        };
        AlertList: {
            alerts: components["schemas"]["Alert"][];
        };
        AlertEvent: {
            /** @description increasing per client and mode: the SSE `id:`, sent back as `Last-Event-ID` to resume */
            event_id: string;
            alert_id: string;
            /**
             * @description price: NBBO mid beyond `threshold` in `direction`; spread_bps: NBBO spread in bps; basis_bps: fair-price basis of `underlying`; fill: a fill of `node_order_id` or `symbol` (any of yours when neither); order_rejected: an order rejected; pnl_below: total PnL (realised + unrealised, USD) below `threshold`; edge_stale: `edge_id` disconnected or silent for more than `threshold` seconds (default 5)
             * @enum {string}
             */
            kind: "price" | "spread_bps" | "basis_bps" | "fill" | "order_rejected" | "pnl_below" | "edge_stale";
            symbol: string | null;
            underlying: string | null;
            node_order_id: string | null;
            edge_id: string | null;
            direction: ("above" | "below") | null;
            threshold: number | null;
            label: string | null;
            /** @description what was observed: the mid, spread or basis (bps), PnL (USD), seconds since the edge published; null for order kinds and a disconnected edge */
            value: number | null;
            message: string;
            /** @description ISO 8601 */
            fired_at: string;
            fill_id?: string;
            venue?: string;
            reason?: string | null;
            is_sandbox: boolean;
        };
        AlertEventList: {
            /** @description oldest first; the last 10,000 per client and mode are kept */
            events: components["schemas"]["AlertEvent"][];
            next_after: string | null;
        };
        AlertStreamEvent: {
            /** @constant */
            event: "alert";
            data: components["schemas"]["AlertEvent"];
        };
        SetKillSwitchReq: {
            /** @description true halts all new dispatch and cancels working orders */
            active: boolean;
            reason?: string;
        };
        /** @description What a client sends: channels to subscribe to and/or unsubscribe from */
        WsClientMessage: {
            subscribe?: string[];
            unsubscribe?: string[];
        } | unknown | unknown;
        WsSubscribed: {
            /** @constant */
            type: "subscribed";
            channels: string[];
        };
        WsUnsubscribed: {
            /** @constant */
            type: "unsubscribed";
            channels: string[];
        };
        FieldError: {
            field: string;
            message: string;
        };
        WsError: {
            /** @constant */
            type: "error";
            error: {
                /** @description VALIDATION_ERROR or UNKNOWN_CHANNEL */
                code: string;
                message: string;
                /** @description the connection id */
                request_id: string;
                details: components["schemas"]["FieldError"][];
            };
        };
        /** @description An order on the `orders` WebSocket channel: OrderRest without `fills` */
        OrderUpdate: {
            node_order_id: string;
            client_id: string;
            client_order_id: string;
            is_sandbox: boolean;
            /** @enum {string} */
            side: "buy" | "sell";
            /** @description trading pair, canonical form */
            symbol: string;
            /** @enum {string} */
            instrument_type: "spot" | "perp" | "prediction";
            /** @description requested quantity */
            qty_1e8: number;
            /** @description filled so far */
            filled_qty_1e8: number;
            /** @enum {string} */
            order_type: "market" | "limit";
            /** @enum {string} */
            time_in_force: "ioc" | "gtc" | "fok";
            /** @description the request's limit price; null when it gave none */
            limit_price_1e9: number | null;
            /**
             * @description canonical status (docs/order-states.md)
             * @enum {string}
             */
            status: "ACCEPTED" | "RUNNING" | "PARTIAL" | "ACTIVE" | "COMPLETED" | "CANCELLED" | "REJECTED" | "UNCONFIRMED" | "UNRESOLVED" | "WAITING";
            /** @enum {string} */
            execution_type: "graph" | "armed" | "adopted";
            /** @description venue-side state: not_sent, sent, open (resting), filled, closed, unknown (a leg in doubt) */
            venue_state: string;
            /**
             * @description separate from the status
             * @enum {string}
             */
            reconciliation_state: "in_sync" | "reconciling" | "reconciled" | "unknown";
            /**
             * @description engine lifecycle, separate from the status
             * @enum {string}
             */
            engine_phase: "admitted" | "routed" | "dispatching" | "working" | "settling" | "done";
            created_unix_ns: number;
            updated_unix_ns: number;
            constraints: components["schemas"]["OrderConstraintsRest"] | null;
            /** @description pre-trade fee estimate, USD 1e9; null until routed */
            expected_fee_1e9: number | null;
            /** @description pre-trade fee estimate; null until routed or when nothing was planned */
            expected_fee_bps: number | null;
            /** @description why the order ended short of COMPLETED, e.g. no_route, insufficient_balance, risk_notional_cap, cancelled, kill_switch */
            failure_class: string | null;
            failure_reason: string | null;
            /** @description exchange timestamp of the first fill */
            first_fill_ts_ns: number | null;
            /** @description owning execution graph (activate an armed order with it) */
            graph_id: string | null;
            graph_name: string | null;
            home_region: string | null;
            node_id: string | null;
            /** @description limit or max price sent to the venues; null for a market order with no cap */
            placed_price_1e9: number | null;
            pool_id: string | null;
            /** @description a DEX order: the trading wallet it swaps from */
            wallet_id?: string;
            /** @description set when the order completes */
            tca: components["schemas"]["TcaReport"] | null;
            /** @description parent arrival to first fill */
            time_to_first_fill_ms: number | null;
            lineage_deployment_id: string | null;
            /**
             * @description assigned from node_order_id
             * @enum {integer}
             */
            routing_version: 1 | 2 | 3;
            /** @description the request's `venue` */
            forced_venue: string | null;
            /** @description consolidated mid when routed; null before, or when there was none */
            arrival_mid_1e9: number | null;
            children: components["schemas"]["ChildOrder"][];
        };
        WsOrdersFrame: {
            /** @constant */
            type: "data";
            /** @constant */
            channel: "orders";
            /** @description when the gateway sent it */
            ts_ns: number;
            data: components["schemas"]["OrderUpdate"];
        };
        WsFillsFrame: {
            /** @constant */
            type: "data";
            /** @constant */
            channel: "fills";
            /** @description when the gateway sent it */
            ts_ns: number;
            data: components["schemas"]["FillRecord"];
        };
        WsTcaFrame: {
            /** @constant */
            type: "data";
            /** @constant */
            channel: "tca";
            /** @description when the gateway sent it */
            ts_ns: number;
            data: components["schemas"]["TcaEvent"];
        };
        WsRoutingFrame: {
            /** @constant */
            type: "data";
            /** @constant */
            channel: "routing";
            /** @description when the gateway sent it */
            ts_ns: number;
            data: components["schemas"]["RoutingPlan"];
        };
        WsSystemFrame: {
            /** @constant */
            type: "data";
            /** @constant */
            channel: "system";
            /** @description when the gateway sent it */
            ts_ns: number;
            data: {
                /** @constant */
                event: "kill_switch";
                active: boolean;
                reason: string | null;
                /** @description null while it was never set */
                updated_at_ms: number | null;
                /** @description client id of the admin who set it */
                updated_by: string | null;
            } | {
                /** @constant */
                event: "readiness";
                ready: boolean;
            };
        };
        /** @description A perp listing's funding rate, sent when its rate or next instant changes (every listing on the first read) */
        FundingRateUpdate: {
            /** @constant */
            kind: "rate";
            venue: string;
            edge_id: string;
            symbol: string;
            /** @description predicted rate of the interval under way, bps */
            rate_bps: number;
            /** @description the same rate as a fraction x 1e9 (1 bps = 100,000) */
            rate_1e9: number;
            interval_hours: number;
            next_funding_ns: number;
            /** @description perp premium over the spot index, bps */
            premium_bps: number;
            ts_ns: number;
        };
        /** @description A funding payment on one of the caller's perp positions */
        FundingAccrual: {
            /** @constant */
            kind: "accrual";
            venue: string;
            symbol: string;
            position_id: number;
            /** @description the funding instant */
            ts_ns: number;
            rate_1e9: number;
            /** @description the mark the position paid funding on */
            mark_1e9: number;
            /** @description the position: negative when short */
            qty_1e8: number;
            /** @description positive when the position paid, negative when it received */
            paid_usd_1e9: number;
            /** @description the position's funding so far (received +, paid -) */
            funding_usd_1e9: number;
        };
        WsFundingFrame: {
            /** @constant */
            type: "data";
            /** @constant */
            channel: "funding";
            /** @description when the gateway sent it */
            ts_ns: number;
            data: components["schemas"]["FundingRateUpdate"] | components["schemas"]["FundingAccrual"];
        };
        /** @description The NBBO of a `prices:` channel, sent when it changes */
        NbboUpdate: {
            /** @description best bid across venues; 0 when no venue bids */
            bid: number;
            /** @description best ask across venues; 0 when no venue asks */
            ask: number;
            /** @description 0 when a side is empty or the consolidated book is crossed */
            mid: number;
            /** @description the size the venue with the best bid shows there */
            bid_sz: number;
            /** @description the size the venue with the best ask shows there */
            ask_sz: number;
            /** @description 0 when a side is empty or the consolidated book is crossed */
            spread_bps: number;
            /** @description when the consolidated NBBO last changed */
            ts_ns: number;
            /** @description when the venue edge handed off the batch behind this frame (ns); 0 before any */
            edge_ts_ns: number;
        };
        WsPricesFrame: {
            /** @constant */
            type: "data";
            /** @description prices:<...>, as subscribed */
            channel: string;
            /** @description when the gateway sent it */
            ts_ns: number;
            data: components["schemas"]["NbboUpdate"];
        };
        /** @description The merged book of a `book:` channel (20 levels a side), sent when a visible level changes */
        BookUpdate: {
            /** @description best first; empty when no venue bids */
            bids: [
                number,
                number
            ][];
            /** @description best first; empty when no venue asks */
            asks: [
                number,
                number
            ][];
            /** @description when the consolidated book last changed */
            ts_ns: number;
            /** @description when the venue edge handed off the batch behind this frame (ns); 0 before any */
            edge_ts_ns: number;
        };
        WsBookFrame: {
            /** @constant */
            type: "data";
            /** @description book:<...>, as subscribed */
            channel: string;
            /** @description when the gateway sent it */
            ts_ns: number;
            data: components["schemas"]["BookUpdate"];
        };
        WsFairPriceFrame: {
            /** @constant */
            type: "data";
            /** @description fair_price:<...>, as subscribed */
            channel: string;
            /** @description when the gateway sent it */
            ts_ns: number;
            data: components["schemas"]["FairPrice"];
        };
        /** @description The public market-data channels */
        WsMarketDataFrame: components["schemas"]["WsPricesFrame"] | components["schemas"]["WsBookFrame"] | components["schemas"]["WsFairPriceFrame"];
        WsDeploymentLogsFrame: {
            /** @constant */
            type: "data";
            /** @description deployment_logs:<...>, as subscribed */
            channel: string;
            /** @description when the gateway sent it */
            ts_ns: number;
            data: components["schemas"]["DeploymentLogLine"];
        };
        /** @description What the server sends: an ack per (un)subscribe call, an error frame, or a data frame */
        WsServerFrame: components["schemas"]["WsSubscribed"] | components["schemas"]["WsUnsubscribed"] | components["schemas"]["WsError"] | components["schemas"]["WsOrdersFrame"] | components["schemas"]["WsFillsFrame"] | components["schemas"]["WsTcaFrame"] | components["schemas"]["WsRoutingFrame"] | components["schemas"]["WsSystemFrame"] | components["schemas"]["WsFundingFrame"] | components["schemas"]["WsMarketDataFrame"] | components["schemas"]["WsDeploymentLogsFrame"];
        /** @description a listing row (expanded: one per binary market), figures null or 0 */
        NewMarketEvent: components["schemas"]["Market"] & {
            /** @constant */
            kind: "new_market";
            observed_at_ns: number;
        };
        /** @description a binary market resolved: sent once per market (keyed by venue and slug, the market id), across regions and restarts */
        MarketResolvedEvent: {
            /** @constant */
            kind: "market_resolved";
            /** @enum {string} */
            venue: "kalshi" | "polymarket";
            /** @description the binary market's event id (a multi-outcome candidate: its market id) */
            event_id: string;
            parent_event_id?: string;
            outcome_name?: string | null;
            /** @description the market slug or ticker */
            slug: string;
            question: string;
            /** @enum {string} */
            winning_outcome: "Yes" | "No";
            winning_token_id: string;
            losing_token_id: string;
            resolved_at_ns: number;
            observed_at_ns: number;
        };
        EdgeStatusResponse: {
            edge_id: string;
            connected: boolean;
            symbol_count: number;
            symbols: {
                symbol: string;
                /** @enum {string} */
                instrument_type: "spot" | "perp" | "prediction";
            }[];
            last_seen_ms: number;
            supports_algo_runtime: boolean;
            region: string | null;
            /** @description true when reached through a peer node in another region (NATS, docs/regions.md); omitted for local edges */
            remote?: boolean | null;
            /** @description a remote edge: how old its data is here, the transit between regions included */
            age_ms?: number;
            venue: string;
            instrument_type: string;
        };
        FairPrice: {
            underlying: string;
            fair_mid_1e9: number;
            spot_mid_1e9: number | null;
            perp_mid_1e9: number | null;
            basis_bps: number | null;
            confidence: number;
            contributors: {
                venue: string;
                /** @enum {string} */
                instrument_type: "spot" | "perp";
                mid_1e9: number;
                weight: number;
                staleness_ms: number;
            }[];
            cc_ts_ns: number;
        };
        FeeRow: {
            venue: string;
            /** @enum {string} */
            fee_model: "linear" | "binary_quadratic";
            components: {
                [key: string]: number | string;
            };
            formula: {
                taker_fee_usd: string;
                maker_fee_usd: string;
            };
            maker_bps: number | null;
            taker_bps: number | null;
        };
        QuoteNbbo: {
            bid: number;
            ask: number;
            /** @description 0 when the consolidated book is crossed */
            mid: number;
            /** @description 0 when the consolidated book is crossed */
            spread_bps: number;
            bid_size: number;
            ask_size: number;
            crossed: boolean;
        };
        QuoteVenue: {
            bid: number;
            ask: number;
            bid_size: number;
            ask_size: number;
            /** @description ms since the venue's last tick */
            age_ms: number;
        };
        QuoteResponse: {
            symbol: string;
            /**
             * @description dex: a chain-suffixed pair (BASE-QUOTE-CHAIN), quoted from its pools
             * @enum {string}
             */
            instrument_type: "spot" | "perp" | "prediction" | "dex";
            nbbo: components["schemas"]["QuoteNbbo"];
            venues: {
                [key: string]: components["schemas"]["QuoteVenue"];
            };
            book: {
                bids: number[][];
                asks: number[][];
            };
            /** @enum {string} */
            source: "edge_nbbo" | "edge_rpc_snapshot" | "venue_public_api" | "unavailable";
            updated_ms: number;
            /** @description prediction legs only: the market and leg the symbol resolved to; prices are probabilities, sizes contracts */
            market?: {
                venue: string;
                market_id: string;
                event_id: string;
                question: string;
                /** @enum {string} */
                leg: "YES" | "NO";
                /** @description the leg: a 78-digit token id, or `<ticker>:YES|NO` */
                token_id: string;
                status: string;
            };
            /** @description cross_venue_equivalents=true only: the same outcome on the other venue, consolidated into nbbo, venues and book */
            equivalents?: {
                venue: string;
                market_id: string;
                /** @enum {string} */
                leg: "YES" | "NO";
                token_id: string;
                /**
                 * @description complement: the question is asked the other way round there, so the outcome is its other leg
                 * @enum {string}
                 */
                relation: "same" | "complement";
                status: string;
            }[];
        };
        QuotesBatchRequest: {
            symbols: string[];
            /**
             * @description levels above 50 are capped at 50
             * @default 10
             */
            depth?: number;
            /** @default false */
            nowait?: boolean;
            /** @default 64 */
            concurrency?: number;
            instrument_type?: ("spot" | "perp" | "prediction") | null;
        };
        /** @description The trade tape of this process */
        TapeStats: {
            /** @description trades written since the start */
            written: number;
            /** @description trades pruned past the retention since the start */
            pruned: number;
            /** @description 0 before the first write */
            last_write_ms: number;
            /** @description the last prune cutoff; 0 before the first prune */
            oldest_kept_ms: number;
        };
        FeedHealth: {
            symbols: {
                symbol: string;
                /** @enum {string} */
                instrument_type: "spot" | "perp";
                /** @description since the consolidated book last changed; null before it has one */
                age_ms: number | null;
                /** @description venues listing the symbol */
                venues_expected: number;
                venues_quoting: number;
                crossed: boolean;
                /** @description no consolidated book, or one unchanged for over 10 s */
                gap: boolean;
            }[];
            /** @description one per worker thread */
            rings: {
                thread: number;
                /** @description the worker answered the stats request */
                up: boolean;
                /** @description null when the worker did not answer */
                mailbox_pending_bytes: number | null;
                fullest_ring: number | null;
                /** @description the worker's V8 heap in use; null when the worker did not answer */
                heap_used_bytes: number | null;
                /** @description null when the worker did not answer */
                actors: number | null;
            }[];
            /** @description thread 0: HTTP, WebSocket, SSE and the journal */
            gateway_thread: {
                /** @description the gateway thread's V8 heap in use */
                heap_used_bytes: number;
                /** @description the fullest ring into the gateway thread (replies, publishes, journal frames), share in use */
                fullest_ring: number;
                /** @description how late the gateway thread's event loop ran a 10 ms timer */
                event_loop_delay: {
                    /** @description the window these figures cover (the last complete one); 0 before the first ends */
                    window_ms: number;
                    p50_ms: number;
                    p99_ms: number;
                    max_ms: number;
                };
            };
            venues: {
                edge_id: string;
                connected: boolean;
                /** @description null before the edge saw anything */
                last_seen_age_ms: number | null;
                symbol_count: number;
            }[];
            tape: components["schemas"]["TapeStats"];
            reconciliation: {
                /** @constant */
                state: "not_applicable";
                note: string;
            };
        };
        DataHealth: {
            /** @description the tape was written within the last 10 s */
            ok: boolean;
            /** @description trades written since the start */
            written: number;
            /** @description trades pruned past the retention since the start */
            pruned: number;
            /** @description 0 before the first write */
            last_write_ms: number;
            /** @description the last prune cutoff; 0 before the first prune */
            oldest_kept_ms: number;
            /** @description null before the first write */
            last_write_age_ms: number | null;
            retention_ms: number;
        };
        ReconInDoubtOrder: {
            node_order_id: string;
            client_order_id: string;
            symbol: string;
            /** @enum {string} */
            side: "buy" | "sell";
            /** @enum {string} */
            status: "ACCEPTED" | "RUNNING" | "PARTIAL" | "ACTIVE" | "COMPLETED" | "CANCELLED" | "REJECTED" | "UNCONFIRMED" | "UNRESOLVED" | "WAITING";
            /** @enum {string} */
            reconciliation_state: "in_sync" | "reconciling" | "reconciled" | "unknown";
            /**
             * @description `legs`: a leg's answer was lost (status UNCONFIRMED); `cancel`: a resting leg's cancel answer was lost (reconciling)
             * @enum {string}
             */
            kind: "legs" | "cancel";
            /** @description since when it is in doubt: when the router began reconciling it, else (source order_record) when the order was last written */
            since_unix_ns: number;
            /** @enum {string} */
            since_source: "router" | "order_record";
            /** @description the router's reconcile rounds so far; null when it is not reconciling the order now (it gave up after its attempts: a restart reconciles it) */
            attempts: number | null;
            last_attempt_unix_ns: number | null;
            /** @description the venue legs in doubt */
            legs: {
                child_id: string;
                venue: string;
                edge_id: string;
                /** @enum {string} */
                status: "sent" | "resting" | "filled" | "partial" | "cancelled" | "rejected" | "unconfirmed";
                qty_1e8: number;
                filled_qty_1e8: number;
                sent_unix_ns: number | null;
            }[];
        };
        ReconEdge: {
            venue: string;
            edge_id: string;
            /** @description null: never reconciled (as far as the router since its start and the recent orders tell) */
            last_reconcile_unix_ns: number | null;
            /** @description found (the venue answered with its record of the leg), not_received (it never saw it: cancelled), report_refused (its record could not be true: asked again), unanswered (no answer in the leg timeout), cancel_confirmed, gave_up (in doubt after every attempt), closed_after_restart */
            outcome: ("found" | "not_received" | "report_refused" | "unanswered" | "cancel_confirmed" | "gave_up" | "closed_after_restart") | null;
            /** @description the order the last reconcile was about */
            node_order_id: string | null;
            /** @description router: the router's log since it started; restart: read from an order a restart closed */
            source: ("router" | "restart") | null;
            asks_since_router_start: number;
            unanswered_since_router_start: number;
            /** @description legs of the orders in doubt waiting on this edge */
            legs_in_doubt: number;
        };
        ReconDriftVenue: {
            venue: string;
            orders: number;
            legs: number;
            fills: number;
            /** @description the sum of our fills' fee_1e9; exact at any size: may exceed 2^53 */
            our_fee_1e9: number;
            /** @description the venue's reported cumulative fee: each leg's last venue_reported_cum_fee_1e9, summed; exact at any size: may exceed 2^53 */
            venue_fee_1e9: number;
            /** @description the sum of our fills' qty_1e8; exact at any size: may exceed 2^53 */
            our_qty_1e8: number;
            /** @description the venue's reported cumulative filled quantity of each leg (venue_reported_cum_qty_1e8), summed; exact at any size: may exceed 2^53 */
            venue_qty_1e8: number;
            /** @description venue minus ours; exact at any size: may exceed 2^53 */
            fee_drift_1e9: number;
            /** @description venue minus ours; exact at any size: may exceed 2^53 */
            qty_drift_1e8: number;
            orders_disagreeing: number;
        };
        DataRecon: {
            is_sandbox: boolean;
            as_of_unix_ns: number;
            router: {
                /** @description false: the client's router did not answer; the figures are LMDB's alone */
                answered: boolean;
                /** @description when the router's reconcile log began (its start) */
                started_unix_ns: number | null;
            };
            in_doubt: {
                /** @description working orders in doubt */
                count: number;
                /** @description oldest first, at most 100 */
                orders: components["schemas"]["ReconInDoubtOrder"][];
            };
            /** @description per edge, by venue */
            last_reconcile: components["schemas"]["ReconEdge"][];
            drift: {
                /** @description the most recent orders checked at most (the limit) */
                window_orders: number;
                orders_checked: number;
                /** @description orders whose fees or quantities differ from the venue reports on any venue, or with a listed fill missing */
                orders_disagreeing: number;
                by_venue: components["schemas"]["ReconDriftVenue"][];
                /** @description newest first, at most 50 */
                disagreeing: {
                    node_order_id: string;
                    symbol: string;
                    /** @enum {string} */
                    status: "ACCEPTED" | "RUNNING" | "PARTIAL" | "ACTIVE" | "COMPLETED" | "CANCELLED" | "REJECTED" | "UNCONFIRMED" | "UNRESOLVED" | "WAITING";
                    missing_fills: number;
                    venues: {
                        venue: string;
                        /** @description the sum of our fills' fee_1e9; exact at any size: may exceed 2^53 */
                        our_fee_1e9: number;
                        /** @description the venue's reported cumulative fee: each leg's last venue_reported_cum_fee_1e9, summed; exact at any size: may exceed 2^53 */
                        venue_fee_1e9: number;
                        /** @description the sum of our fills' qty_1e8; exact at any size: may exceed 2^53 */
                        our_qty_1e8: number;
                        /** @description the venue's reported cumulative filled quantity of each leg (venue_reported_cum_qty_1e8), summed; exact at any size: may exceed 2^53 */
                        venue_qty_1e8: number;
                    }[];
                }[];
            };
        };
        Signal: {
            symbol: string;
            /** @enum {string} */
            instrument_type: "spot" | "perp";
            bid_1e9: number | null;
            ask_1e9: number | null;
            /** @description (bid + ask) / 2, a decimal as the quote's nbbo.mid; null without both sides */
            mid: number | null;
            crossed: boolean;
            /** @description since the NBBO last changed */
            quote_age_ms: number | null;
            /** @description (ask - bid) / mid x 10,000; negative when crossed */
            spread_bps: number | null;
            /** @description (mid now / reference mid - 1) x 10,000; null while the mid history is shorter than the horizon */
            mid_return_bps: number | null;
            /** @description when the reference mid was sampled: the last sample at or before now - horizon */
            return_reference_ms: number | null;
            /** @description the reference mid, a decimal */
            return_reference_mid: number | null;
            realized_vol: {
                /** @description sqrt(sum of squared log returns between mid samples / seconds) x 10,000 */
                bps_per_sqrt_s: number | null;
                /** @description the same per second variance over a 365-day year, as a fraction (0.6 = 60%) */
                annualized: number | null;
                samples: number;
                window_s: number;
            };
            book_imbalance: {
                levels: number;
                /** @description the first `levels` levels of the consolidated bids; exact at any size: may exceed 2^53 */
                bid_depth_1e8: number;
                /** @description exact at any size: may exceed 2^53 */
                ask_depth_1e8: number;
                /** @description (bid - ask) / (bid + ask) depth */
                imbalance: number | null;
            };
            trade_flow: {
                /** @description trades on the tape over the horizon */
                trades: number;
                /** @description taker buy quantity; exact at any size: may exceed 2^53 */
                buy_qty_1e8: number;
                /** @description taker sell quantity; exact at any size: may exceed 2^53 */
                sell_qty_1e8: number;
                /** @description (buy - sell) / (buy + sell); null without trades */
                imbalance: number | null;
                /** @description the horizon held more than 20,000 trades: the flow is of its newest 20,000 */
                truncated: boolean;
            };
            /** @description null when the symbol is not USD-settled or its underlying has no fair price */
            fair_price: {
                underlying: string;
                fair_mid_1e9: number;
                confidence: number;
                /** @description (NBBO mid - fair mid) / fair mid x 10,000 */
                basis_bps: number | null;
            } | null;
            /** @description how far back the mid history reaches */
            history_s: number;
        };
        DataSignals: {
            as_of_ms: number;
            horizon_s: number;
            levels: number;
            /** @description the mid history is sampled at this interval */
            sample_ms: number;
            signals: components["schemas"]["Signal"][];
        };
        DataStats: {
            /** @constant */
            window_ms: 3600000;
            /** @description trades on the tape per book (`SYMBOL`, or `SYMBOL:perp`) */
            trades_last_hour: {
                [key: string]: number;
            };
            tape: components["schemas"]["TapeStats"];
        };
        /** @description An OpenAPI 3.1 document */
        OpenApiDocument: {
            openapi: string;
            info: {
                title: string;
                version: string;
                description?: string;
            };
            servers: {
                url: string;
            }[];
            security: {
                [key: string]: string[];
            }[];
            paths: {
                [key: string]: Record<string, never>;
            };
            components: {
                securitySchemes: {
                    [key: string]: Record<string, never>;
                };
                schemas: {
                    [key: string]: Record<string, never>;
                };
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Health */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getHealthLive: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Alive */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "alive";
                        uptime_ms: number;
                    };
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getHealthReady: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        ready: true;
                        workers: number;
                    };
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not ready (error envelope, code NOT_READY) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getHealthSafety: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Safe */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        safe: true;
                        /** @constant */
                        kill_switch_active: false;
                    };
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Dispatch halted (error envelope, code DISPATCH_HALTED); `details` has one row per live venue: its cancel-all's outcome on the venue */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Bare array of API key records */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyRecord"][];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CreateApiKeyReq"];
            };
        };
        responses: {
            /** @description The new key, with its raw value */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IssuedApiKey"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    deleteApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                key_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deactivated key */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyRecord"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown key */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key is the one in use (code KEY_IN_USE) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    rotateApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                key_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The replacement key, with its raw value */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IssuedApiKey"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown key */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key is already inactive (code KEY_INACTIVE) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listCredentials: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Venue ids, sorted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CredentialVenues"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    storeCredentials: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description one of the ten venue ids */
                venue: "binance" | "coinbase" | "kraken" | "okx" | "bybit" | "kucoin" | "bitstamp" | "hyperliquid" | "kalshi" | "polymarket";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StoreCredentialsReq"];
            };
        };
        responses: {
            /** @description Stored; durable before this answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CredentialsStored"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    deleteCredentials: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description one of the ten venue ids */
                venue: "binance" | "coinbase" | "kraken" | "okx" | "bybit" | "kucoin" | "bitstamp" | "hyperliquid" | "kalshi" | "polymarket";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; durable before this answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CredentialsDeleted"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No credentials stored for this venue in the mode of the calling key */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listOrders: {
        parameters: {
            query?: {
                symbol?: string;
                /** @description `open` for the working set, or a canonical status */
                status?: string;
                limit?: number;
                /** @description legacy; use after */
                offset?: number;
                after?: string;
                region?: string;
                history?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of orders, newest first, with counts by status */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListOrdersResp"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    submitOrder: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OrderRequest"];
            };
        };
        responses: {
            /** @description The original order of a repeated request */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderRest"];
                };
            };
            /** @description The accepted (or rejected) order */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderRest"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description a DEX order without a trading wallet, or naming a wallet_id that is not the caller's (NO_TRADING_WALLET) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description client_order_id reused with a different request (IDEMPOTENCY_CONFLICT); a DEX order while the wallet provisions (TRADING_WALLET_NOT_READY) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Kill switch active (DISPATCH_HALTED) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    previewOrder: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OrderPreviewRequest"];
            };
        };
        responses: {
            /** @description The routing plan and landed cost */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderPreview"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getOrder: {
        parameters: {
            query?: {
                expand?: string;
            };
            header?: never;
            path: {
                node_order_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Order */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderRest"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown order */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    cancelOrder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                node_order_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The order id and its status after the cancel */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CancelOrderResp"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown order */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description REGION_UNREACHABLE: the order is homed in another region whose node did not answer the cancel */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listFills: {
        parameters: {
            query?: {
                node_order_id?: string;
                symbol?: string;
                limit?: number;
                after?: string;
                /** @description diagnostic home-region filter, as on GET /v1/orders; reads are global when omitted */
                region?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of fills, newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FillsPage"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    activateGraph: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                graph_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The activated order */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderRest"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown graph */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not armed */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description REGION_UNREACHABLE: the graph is homed in another region whose node did not answer */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listParentOrders: {
        parameters: {
            query?: {
                /** @description if given, must be the caller's client id (403 otherwise) */
                client_id?: string;
                symbol?: string;
                /** @description legacy status; see docs/api-decisions.md for the canonical statuses each covers */
                status?: "ACCEPTED" | "RUNNING" | "COMPLETED" | "CANCELLED" | "FAILED";
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description {orders, total, limit, offset} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ParentOrderList"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description client_id is not the caller's (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    submitParentOrder: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ParentOrderRequest"];
            };
        };
        responses: {
            /** @description The original parent order of a repeated request */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ParentOrder"];
                };
            };
            /** @description The accepted (or failed) parent order */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ParentOrder"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description client_id is not the caller's (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown symbol */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description client_order_id reused with a different request (IDEMPOTENCY_CONFLICT) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Kill switch active (DISPATCH_HALTED) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getPositions: {
        parameters: {
            query?: {
                /** @description comma list; default all */
                venues?: string;
                /** @description comma list of fiat, crypto, perp, event_contract; default all */
                kinds?: string;
                include_closed?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Positions with their marks, and totals over the returned rows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PositionsResp"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    syncPositions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Whether the cost basis is current */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PositionsSyncResp"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    streamRisk: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A stream of `risk` events: the read-out at once, then on every change */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": components["schemas"]["RiskEvent"] | components["schemas"]["SseEnd"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    streamTca: {
        parameters: {
            query?: {
                node_order_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A stream of `tca_report` events, one per completed order */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": components["schemas"]["TcaReportEvent"] | components["schemas"]["SseEnd"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getRisk: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Risk state */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RiskReadout"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    writeSandboxPositions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SandboxPositionsReq"];
            };
        };
        responses: {
            /** @description Written; durable before this answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxPositionsResp"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Forbidden for this caller */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    resetSandbox: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["SandboxResetReq"];
            };
        };
        responses: {
            /** @description Reset; durable before this answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxResetResp"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Forbidden for this caller */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getSandboxSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every setting */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxSettings"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Forbidden for this caller */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    setSandboxSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SandboxSettingsReq"];
            };
        };
        responses: {
            /** @description Every setting, as the next reset will make them effective */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxSettings"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Forbidden for this caller */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listMarkets: {
        parameters: {
            query?: {
                /** @description default the token-style venue (polymarket) */
                venue?: "kalshi" | "polymarket";
                /** @description direct lookup by slug or ticker (event or market) */
                slug?: string;
                /** @description free text over ticker, question and rules (case-insensitive substring) */
                q?: string;
                tag?: string;
                active?: boolean;
                closed?: boolean;
                /** @description rows per page */
                limit?: number;
                /** @description opaque; only with the query that gave it */
                cursor?: string;
                /** @description default none: listing order (the venue chooses) */
                order?: "volume" | "volume_total" | "end_date" | "start_date" | "created" | "competitive" | "closed_time";
                expand?: "outcomes";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of rows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MarketsPage"];
                };
            };
            /** @description limit outside 1-500, or a cursor from another query */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description unknown slug or ticker */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getSettlement: {
        parameters: {
            query?: {
                /** @description false skips the underlying block (no on-chain calls) */
                underlying?: boolean;
            };
            header?: never;
            path: {
                /** @description ticker, slug or event URL (raw token ids are rejected for the token-style venue) */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Settlement */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Settlement"];
                };
            };
            /** @description a raw token id, a malformed name, or a multi-outcome event (AMBIGUOUS_MULTI_OUTCOME) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description unknown slug or ticker */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    redeemMarket: {
        parameters: {
            query?: {
                /** @description the venue of the market; default: the one the name resolves to */
                venue?: "kalshi" | "polymarket";
            };
            header?: never;
            path: {
                /** @description market slug or ticker, event slug or ticker, event URL, or token id */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What the venue does with the redemption */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RedeemResponse"];
                };
            };
            /** @description a malformed name, or a venue that does not list it */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description unknown slug or ticker */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description the market has not resolved (MARKET_NOT_RESOLVED) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listRewards: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the token-style venue: maker-rewards programs are its own */
                prediction_venue: "polymarket";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rewarded tokens, richest programs first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RewardsList"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getRewards: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the token-style venue: maker-rewards programs are its own */
                prediction_venue: "polymarket";
                /** @description a 78-digit conditional-token id (YES or NO: both tokens of a rewarded market are in its program) */
                token_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rewards config */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RewardsConfig"];
                };
            };
            /** @description not a 78-digit token id */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description the token is in no program now */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listWallets: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Wallets */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        wallets: components["schemas"]["Wallet"][];
                    };
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getTradingWallet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The wallet */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Wallet"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description NO_TRADING_WALLET */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getDefaultWallet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The wallet */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Wallet"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description NO_TRADING_WALLET */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createManagedWallet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateManagedWalletRequest"];
            };
        };
        responses: {
            /** @description Created, provisioning */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Wallet"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description a trading wallet exists or is being provisioned (WALLET_EXISTS) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getTokenInfo: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Tokens by symbol */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenInfo"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    withdrawFromWallet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WithdrawRequest"];
            };
        };
        responses: {
            /** @description Signed and submitted; the balance is debited */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WithdrawResponse"];
                };
            };
            /** @description unknown token on the chain, a malformed or non-positive amount, a malformed or checksum-failing address, more than the wallet holds */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description NO_TRADING_WALLET */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description TRADING_WALLET_NOT_READY */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getPools: {
        parameters: {
            query: {
                /** @description BASE-QUOTE-CHAIN (one chain, e.g. ETH-USDC-dex-arb), or BASE-USD (every chain, any dollar quote) */
                symbol: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Pools */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        symbol: string;
                        pools: components["schemas"]["DexPool"][];
                    };
                };
            };
            /** @description not a pair */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description no pool trades the pair */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listDeployments: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deployments */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deployments: components["schemas"]["Deployment"][];
                    };
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createDeployment: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateDeploymentRequest"];
            };
        };
        responses: {
            /** @description Created (running when start_immediately) */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deployment"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description BUNDLE_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description DEPLOYMENT_EXISTS (deployment_id taken), DEPLOYMENT_LIMIT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getDeployment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deployment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deployment */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deployment"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown deployment */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    deleteDeployment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deployment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        deleted: true;
                        deployment_id: string;
                    };
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown deployment */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description DEPLOYMENT_RUNNING: stop it first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    startDeployment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deployment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Running, or failed with a reason */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deployment"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown deployment */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description DEPLOYMENT_RUNNING, DEPLOYMENT_LIMIT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    stopDeployment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deployment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Stopped */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deployment"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown deployment */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getDeploymentLogs: {
        parameters: {
            query?: {
                limit?: number;
                /** @description only lines at or after this time */
                since_ms?: number;
            };
            header?: never;
            path: {
                deployment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Log lines */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deployment_id: string;
                        lines: components["schemas"]["DeploymentLogLine"][];
                        /** @description lines lost to the rate cap or the ring */
                        dropped: number;
                    };
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown deployment */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getExecutionAnalytics: {
        parameters: {
            query?: {
                symbol?: string;
                routing_version?: number;
                /** @description ISO 8601 (or integer ns); default 30 days before `until` */
                since?: string;
                /** @description ISO 8601 (or integer ns); default now */
                until?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Execution analytics */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExecutionAnalytics"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getVenueAnalytics: {
        parameters: {
            query?: {
                symbol?: string;
                /** @description ISO 8601 (or integer ns); default 30 days before `until` */
                since?: string;
                /** @description ISO 8601 (or integer ns); default now */
                until?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Venue analytics */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VenueAnalytics"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getTcaAnalytics: {
        parameters: {
            query?: {
                symbol?: string;
                /** @description ISO 8601 (or integer ns); default 30 days before `until` */
                since?: string;
                /** @description ISO 8601 (or integer ns); default now */
                until?: string;
                venue?: string;
                routing_version?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description TCA analytics */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TcaAnalytics"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getTcaVenues: {
        parameters: {
            query?: {
                symbol?: string;
                /** @description ISO 8601 (or integer ns); default 30 days before `until` */
                since?: string;
                /** @description ISO 8601 (or integer ns); default now */
                until?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Per-venue attribution */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TcaVenues"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getTcaTimeseries: {
        parameters: {
            query?: {
                /** @description buckets aligned to UTC (4h: 00:00, 04:00, ...; 1d: midnight) */
                interval?: "1h" | "4h" | "1d";
                symbol?: string;
                /** @description ISO 8601 (or integer ns); default 7 days before `until` */
                since?: string;
                /** @description ISO 8601 (or integer ns); default now */
                until?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Time-bucketed TCA */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TcaTimeseries"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getTcaVersions: {
        parameters: {
            query?: {
                symbol?: string;
                /** @description ISO 8601 (or integer ns); default 30 days before `until` */
                since?: string;
                /** @description ISO 8601 (or integer ns); default now */
                until?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Routing versions compared */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TcaVersions"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getTcaReport: {
        parameters: {
            query?: {
                /** @description week: the 7 days, month: the 30 days ending at `until`, in whole UTC hours; compared with the period before */
                period?: "week" | "month";
                /** @description ISO 8601 (or integer ns); end of the period, default now */
                until?: string;
                symbol?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description TCA report */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TcaPeriodReport"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getTcaQuality: {
        parameters: {
            query?: {
                symbol?: string;
                /** @description ISO 8601 (or integer ns); default 30 days before `until` */
                since?: string;
                /** @description ISO 8601 (or integer ns); default now */
                until?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description TCA quality */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TcaQuality"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getMarketAnalytics: {
        parameters: {
            query?: {
                /** @description levels of the merged book summed into the depth figures */
                depth?: number;
            };
            header?: never;
            path: {
                symbol: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Market analytics */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MarketAnalytics"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown symbol */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listAlerts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Alerts */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertList"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createAlert: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateAlertRequest"];
            };
        };
        responses: {
            /** @description The alert, durable */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Alert"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description ALERT_LIMIT: already 100 alerts in this mode */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listAlertEvents: {
        parameters: {
            query?: {
                /** @description an event_id: only later events */
                after?: string;
                limit?: number;
                alert_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Firings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertEventList"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    streamAlerts: {
        parameters: {
            query?: {
                edge_id?: string;
                node_order_id?: string;
                alert_id?: string;
                /** @description as the `Last-Event-ID` header (for clients that cannot set it); the header wins */
                last_event_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A stream of `alert` events */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": components["schemas"]["AlertStreamEvent"] | components["schemas"]["SseEnd"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getAlert: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                alert_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The alert */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Alert"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such alert in this mode */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    deleteAlert: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                alert_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The alert as it was */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Alert"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such alert in this mode */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    setKillSwitch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetKillSwitchReq"];
            };
        };
        responses: {
            /** @description The new state */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "active" | "inactive";
                        kill_switch: components["schemas"]["KillSwitchState"];
                    };
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Forbidden for this caller */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getWsTicket: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The ticket */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        ticket: string;
                        expires_in_ms: number;
                        /** Format: date-time */
                        expires_at: string;
                    };
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    openStream: {
        parameters: {
            query?: {
                /** @description single-use ticket from GET /v1/ws/ticket; else send Authorization: Bearer */
                ticket?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching protocols to WebSocket; the messages each side sends after it are in x-websocket. The upgrade needs a ticket (?ticket=) or an Authorization: Bearer credential: without a valid one it is refused with 401, over the rate limit with 429 (error envelope) */
            101: {
                headers: {
                    Upgrade: "websocket";
                    Connection: "Upgrade";
                    /** @description base64 SHA-1 of the Sec-WebSocket-Key sent and the RFC 6455 GUID */
                    "Sec-WebSocket-Accept": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A plain HTTP request: this endpoint needs a WebSocket upgrade (UPGRADE_REQUIRED) */
            426: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    openNewMarketsStream: {
        parameters: {
            query?: {
                /** @description single-use ticket from GET /v1/ws/ticket; else send Authorization: Bearer */
                ticket?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching protocols to WebSocket; the frames in x-websocket. Without a valid ticket or bearer credential the upgrade is refused with 401, over the rate limit with 429 */
            101: {
                headers: {
                    Upgrade: "websocket";
                    Connection: "Upgrade";
                    /** @description base64 SHA-1 of the Sec-WebSocket-Key sent and the RFC 6455 GUID */
                    "Sec-WebSocket-Accept": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A plain HTTP request: this endpoint needs a WebSocket upgrade (UPGRADE_REQUIRED) */
            426: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    openMarketResolvedStream: {
        parameters: {
            query?: {
                /** @description single-use ticket from GET /v1/ws/ticket; else send Authorization: Bearer */
                ticket?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching protocols to WebSocket; the frames in x-websocket. Without a valid ticket or bearer credential the upgrade is refused with 401, over the rate limit with 429 */
            101: {
                headers: {
                    Upgrade: "websocket";
                    Connection: "Upgrade";
                    /** @description base64 SHA-1 of the Sec-WebSocket-Key sent and the RFC 6455 GUID */
                    "Sec-WebSocket-Accept": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A plain HTTP request: this endpoint needs a WebSocket upgrade (UPGRADE_REQUIRED) */
            426: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listSymbols: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Instruments */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        symbols: {
                            symbol: string;
                            instrument_type: string;
                            base: string;
                            quote: string;
                            venues: {
                                venue: string;
                                edge_id: string;
                                min_qty_1e8: number;
                                tick_1e9: number;
                                lot_1e8: number;
                                min_notional_1e9: number;
                            }[];
                        }[];
                        count: number;
                    };
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listEdges: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Bare array of edge status */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EdgeStatusResponse"][];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listFairPrice: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Tracked underlyings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        underlyings: string[];
                    };
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getFairPrice: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                underlying: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Fair price */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FairPrice"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Untracked underlying */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getFees: {
        parameters: {
            query: {
                /** @description a CEX symbol, a ticker-style ticker, a 78-digit token id, or a slug */
                ticker: string;
                /** @description comma list of venue ids; default every venue that plausibly lists the ticker */
                venues?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Fee rows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        ticker: string;
                        fees: components["schemas"]["FeeRow"][];
                    };
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getQuote: {
        parameters: {
            query?: {
                depth?: number;
                nowait?: boolean;
                /** @description auto-detected when omitted: spot when the symbol trades spot, else perp, else a prediction market leg (ticker, slug, token id or event URL) */
                instrument_type?: "spot" | "perp" | "prediction";
                /** @description prediction legs: the outcome's consolidated quote over both venues (its equivalents' same leg, or other leg where the question is inverted) */
                cross_venue_equivalents?: boolean;
            };
            header?: never;
            path: {
                symbol: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Quote */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuoteResponse"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown symbol */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listQuotes: {
        parameters: {
            query?: {
                /** @description comma list */
                symbols?: string;
                /** @description alias of symbols */
                symbol?: string;
                /** @description NBBO-level age filter; 0 filters everything out */
                max_age_s?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Quotes younger than max_age_s */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        quotes: {
                            symbol: string;
                            nbbo: components["schemas"]["QuoteNbbo"];
                            venues: {
                                [key: string]: components["schemas"]["QuoteVenue"];
                            };
                        }[];
                    };
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    quotesBatch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["QuotesBatchRequest"];
            };
        };
        responses: {
            /** @description One entry per requested symbol, in order */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        quotes: (components["schemas"]["QuoteResponse"] | {
                            symbol: string;
                            error: string;
                            code: string;
                            /** @description AMBIGUOUS_MULTI_OUTCOME only: candidate labels */
                            outcomes?: string[];
                            /** @description AMBIGUOUS_MULTI_OUTCOME only: parallel ids to retry with */
                            outcome_token_ids?: string[];
                        })[];
                        count: number;
                        elapsed_ms: number;
                    };
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getPriceHistory: {
        parameters: {
            query?: {
                range?: "1h" | "6h" | "1d" | "1w" | "1m" | "max";
                /** @description 0 = tick mode */
                fidelity_secs?: number;
                /** @description tick mode only */
                limit?: number;
                /** @description prediction markets only (ignored for CEX symbols): walk the whole range in 7-day windows, at most 200,000 points; without it, the newest window only */
                paginate?: boolean;
                /** @description default: spot when the symbol trades spot, else a prediction leg */
                instrument_type?: "spot" | "perp" | "prediction";
            };
            header?: never;
            path: {
                symbol: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Points in ascending ts_ns */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        symbol: string;
                        range: string;
                        fidelity_secs: number;
                        points: {
                            ts_ns: number;
                            price_1e9: number;
                            qty_1e8?: number;
                            /** @enum {string} */
                            side?: "buy" | "sell";
                            venue_id?: string;
                        }[];
                        /** @description prediction legs: older points of the range were left out (one window without paginate, or the 200,000-point cap) */
                        truncated?: boolean;
                        /** @description prediction legs: 7-day windows read from the venue */
                        windows?: number;
                    };
                };
            };
            /** @description a prediction leg in tick mode or at a fidelity that is no whole number of minutes; a multi-outcome event (AMBIGUOUS_MULTI_OUTCOME) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown symbol */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getRecentTicks: {
        parameters: {
            query: {
                symbol: string;
                instrument_type?: "spot" | "perp";
                venue?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ticks, ascending */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        symbol: string;
                        ticks: {
                            ts_ns: number;
                            price_1e9: number;
                            qty_1e8: number;
                            /** @enum {string} */
                            side: "buy" | "sell";
                            venue_id: string;
                            trade_id: string;
                        }[];
                    };
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getTicksRange: {
        parameters: {
            query: {
                symbol: string;
                instrument_type?: "spot" | "perp";
                /** @description ISO 8601 or integer ns */
                from: string;
                /** @description ISO 8601 or integer ns; default now */
                to?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ticks, ascending */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        symbol: string;
                        ticks: {
                            ts_ns: number;
                            price_1e9: number;
                            qty_1e8: number;
                            /** @enum {string} */
                            side: "buy" | "sell";
                            venue_id: string;
                            trade_id: string;
                        }[];
                        has_more: boolean;
                    };
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getFundingRates: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Rates */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        rates: {
                            venue: string;
                            edge_id: string;
                            symbol: string;
                            rate_bps: number;
                            rate_1e9: number;
                            interval_hours: number;
                            next_funding_ns: number;
                            premium_bps: number;
                            ts_ns: number;
                        }[];
                    };
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getFundingHistory: {
        parameters: {
            query?: {
                venue?: string;
                range?: "1d" | "1w" | "1m";
                limit?: number;
            };
            header?: never;
            path: {
                symbol: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Funding points, ascending per venue */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        symbol: string;
                        history: {
                            venue: string;
                            ts_ns: number;
                            rate_bps: number;
                            rate_1e9: number;
                            /** @description the venue's mark at the funding instant: what positions paid funding on */
                            mark_1e9: number;
                        }[];
                    };
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No perpetual venue lists the symbol */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getHealthEdges: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Drift report */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        ok: boolean;
                        expected: string[];
                        connected: string[];
                        missing: string[];
                        unexpected: string[];
                        edges: {
                            edge_id: string;
                            venue: string;
                            connected: boolean;
                            remote: boolean;
                            region: string;
                        }[];
                    };
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getHealthFeeds: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Feed health */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FeedHealth"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getDataHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Tape health */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataHealth"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getDataRecon: {
        parameters: {
            query?: {
                /** @description the most recent orders whose fills are checked against the venue reports */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Reconciliation state */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataRecon"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getDataSignals: {
        parameters: {
            query?: {
                /** @description a symbol or a comma list of up to 20; default BTC-USDT, ETH-USDT, SOL-USDT, XRP-USDT, BNB-USDT, DOGE-USDT (those whose book has data) */
                symbol?: string;
                instrument_type?: "spot" | "perp";
                /** @description the return, volatility and trade-flow window, seconds */
                horizon_s?: number;
                /** @description book levels each side the imbalance sums */
                levels?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signals, one per symbol */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataSignals"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No book of the instrument type for a symbol */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getDataStats: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Statistics */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataStats"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getOpenApi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OpenAPI 3.1 document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenApiDocument"];
                };
            };
            /** @description Validation error (one detail per field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
}
