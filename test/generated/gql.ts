/* eslint-disable */
import * as types from './graphql.js';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query EndOfDayTestStatement($orgId: ID!, $locationId: ID!, $date: String!) {\n    dailyStatements(orgId: $orgId, locationId: $locationId, from: $date, to: $date) {\n      date\n      platforms { ...EndOfDayTestLine }\n      totals { ...EndOfDayTestLine }\n    }\n  }\n  fragment EndOfDayTestLine on StatementLine {\n    source currency taken awaiting failed failedByReason { reason orders }\n    canceledByMerchant canceledByDsp\n    amounts { subtotal tax taxWithheldByDsp deliveryFee deliveryFeeTax restaurantTip driverTip discountMerchant discountDsp markup total }\n    payout { commissionPercent commission payout }\n  }\n": typeof types.EndOfDayTestStatementDocument,
    "subscription MultiOrderUpdated($orgId: ID!) { orderUpdated(orgId: $orgId) { id status } }": typeof types.MultiOrderUpdatedDocument,
    "query Locations($orgId: ID!) { organizationLocations(orgId: $orgId) { locations { id status } } }": typeof types.LocationsDocument,
    "subscription Orders($orgId: ID!) { orderUpdated(orgId: $orgId) { id status } }": typeof types.OrdersDocument,
    "\n      mutation Token($input: TokenInput!) {\n        token(input: $input) { accessToken tokenType expiresIn scopes refreshToken }\n      }\n    ": typeof types.TokenDocument,
    "query OrgById($id: ID!) { organization(id: $id) { id name } }": typeof types.OrgByIdDocument,
    "query OrgName($id: ID!) { organization(id: $id) { id name users { email } } }": typeof types.OrgNameDocument,
    "\n      mutation NamedToken($input: CreatePartnerTokenInput!) {\n        createPartnerToken(input: $input) { id orgId tokenName scopes accessToken expiresIn }\n      }\n    ": typeof types.NamedTokenDocument,
    "\n    query CatalogAndPublishes($orgId: ID!, $locationId: ID) {\n      organizationLocations(orgId: $orgId, locationId: $locationId) {\n        locations {\n          id\n          catalog { version fetchedAt currency problems menus { providerId name categoryIds } items { providerId name price { amount currency } } modifierGroups { providerId modifierIds } taxes { providerId rate } }\n          dsps { id dspStoreId menuProviderIds publishes(last: 5) { status menuProviderIds catalogVersion error } }\n        }\n      }\n    }\n  ": typeof types.CatalogAndPublishesDocument,
    "query GqlEvaluate($partnerId: ID!, $flagKey: String!, $key: String!, $kind: String) { evaluateFlag(partnerId: $partnerId, flagKey: $flagKey, key: $key, kind: $kind) { flagKey value enabled reason } }": typeof types.GqlEvaluateDocument,
    "mutation GqlAddFlag($input: ChangeContextsInput!) { addFlagContexts(input: $input) { flagKey targets { key kind } } }": typeof types.GqlAddFlagDocument,
    "mutation GqlRemoveFlag($input: ChangeContextsInput!) { removeFlagContexts(input: $input) { flagKey targets { key kind } } }": typeof types.GqlRemoveFlagDocument,
    "mutation GqlAddSegment($input: ChangeContextsInput!) { addSegmentContexts(input: $input) { segmentKey targets { key kind } } }": typeof types.GqlAddSegmentDocument,
    "query GqlSearch($q: String, $kind: String, $limit: String) { searchContexts(q: $q, kind: $kind, limit: $limit) { contexts { key kind flags segments } } }": typeof types.GqlSearchDocument,
    "mutation GqlCreateOrg($input: CreateOrganizationInput!) { createOrganization(input: $input) { orgId userId } }": typeof types.GqlCreateOrgDocument,
    "\n  mutation GqlInit($input: InitializeOnboardingInput!) {\n    initializeOnboarding(input: $input) { onboarding { id status entryUrl type source partnerOrgId } }\n  }\n": typeof types.GqlInitDocument,
    "mutation GqlComplete($input: CompleteOnboardingInput!) { completeOnboarding(input: $input) { id status integrationId } }": typeof types.GqlCompleteDocument,
    "subscription GqlOnboardingUpdated($id: ID!) { onboardingUpdated(id: $id) { id status integrationId } }": typeof types.GqlOnboardingUpdatedDocument,
    "\n  query GqlOnboardingLocations($id: ID!) {\n    onboardingLocations(onboardingId: $id) { locations { providerId name isEligibleToOnboard address { locality country } } }\n  }\n": typeof types.GqlOnboardingLocationsDocument,
    "mutation GqlIngest($input: IngestLocationsInput!) { ingestLocations(input: $input) { locations { id providerId } } }": typeof types.GqlIngestDocument,
    "mutation GqlBind($input: BindDspLocationsInput!) { bindDspLocations(input: $input) { locations { id dspProviderId dspStoreName status } } }": typeof types.GqlBindDocument,
    "\n  query GqlOrgLocations($orgId: ID!) {\n    organizationLocations(orgId: $orgId) {\n      locations { id name source status providerId integrationStatus prepTimeMinutes busy { extraPrepMinutes untilMs } openNow opensAt closesAt menus { providerId } address { locality country } dsps { id name source status dspStoreId changeTime menuProviderIds integrationStatus } }\n    }\n  }\n": typeof types.GqlOrgLocationsDocument,
    "mutation GqlAssign($input: AssignMenusInput!) { assignMenus(input: $input) { dspLocationId menuProviderIds } }": typeof types.GqlAssignDocument,
    "mutation GqlDelete($input: DeleteLocationInput!) { deleteLocation(input: $input) { id deleted } }": typeof types.GqlDeleteDocument,
    "mutation GqlSso($partnerId: ID, $input: GenerateSsoSessionInput!) { generateSsoSession(partnerId: $partnerId, input: $input) { ssoLoginToken } }": typeof types.GqlSsoDocument,
    "subscription OrderUpdated($orgId: ID!) { orderUpdated(orgId: $orgId) { id status deliveryStatus posOrderId driver { name } } }": typeof types.OrderUpdatedDocument,
    "query DeadDeliveries { deliveries(status: \"dead\") { id kind status attempts lastStatus lastError idempotencyKey } }": typeof types.DeadDeliveriesDocument,
    "mutation Redeliver($id: ID!) { redeliver(id: $id) { id status attempts } }": typeof types.RedeliverDocument,
    "\n    query OrdersPage($orgId: ID!, $status: OrderStatus, $locationId: ID, $dspSource: String, $first: Int, $after: ID, $from: Float) {\n      orders(orgId: $orgId, status: $status, locationId: $locationId, dspSource: $dspSource, first: $first, after: $after, from: $from) {\n        orders { id status dspOrderNumber }\n        nextCursor\n        totalCount\n      }\n    }\n  ": typeof types.OrdersPageDocument,
    "query ProviderNames { providers { source kind name } }": typeof types.ProviderNamesDocument,
};
const documents: Documents = {
    "\n  query EndOfDayTestStatement($orgId: ID!, $locationId: ID!, $date: String!) {\n    dailyStatements(orgId: $orgId, locationId: $locationId, from: $date, to: $date) {\n      date\n      platforms { ...EndOfDayTestLine }\n      totals { ...EndOfDayTestLine }\n    }\n  }\n  fragment EndOfDayTestLine on StatementLine {\n    source currency taken awaiting failed failedByReason { reason orders }\n    canceledByMerchant canceledByDsp\n    amounts { subtotal tax taxWithheldByDsp deliveryFee deliveryFeeTax restaurantTip driverTip discountMerchant discountDsp markup total }\n    payout { commissionPercent commission payout }\n  }\n": types.EndOfDayTestStatementDocument,
    "subscription MultiOrderUpdated($orgId: ID!) { orderUpdated(orgId: $orgId) { id status } }": types.MultiOrderUpdatedDocument,
    "query Locations($orgId: ID!) { organizationLocations(orgId: $orgId) { locations { id status } } }": types.LocationsDocument,
    "subscription Orders($orgId: ID!) { orderUpdated(orgId: $orgId) { id status } }": types.OrdersDocument,
    "\n      mutation Token($input: TokenInput!) {\n        token(input: $input) { accessToken tokenType expiresIn scopes refreshToken }\n      }\n    ": types.TokenDocument,
    "query OrgById($id: ID!) { organization(id: $id) { id name } }": types.OrgByIdDocument,
    "query OrgName($id: ID!) { organization(id: $id) { id name users { email } } }": types.OrgNameDocument,
    "\n      mutation NamedToken($input: CreatePartnerTokenInput!) {\n        createPartnerToken(input: $input) { id orgId tokenName scopes accessToken expiresIn }\n      }\n    ": types.NamedTokenDocument,
    "\n    query CatalogAndPublishes($orgId: ID!, $locationId: ID) {\n      organizationLocations(orgId: $orgId, locationId: $locationId) {\n        locations {\n          id\n          catalog { version fetchedAt currency problems menus { providerId name categoryIds } items { providerId name price { amount currency } } modifierGroups { providerId modifierIds } taxes { providerId rate } }\n          dsps { id dspStoreId menuProviderIds publishes(last: 5) { status menuProviderIds catalogVersion error } }\n        }\n      }\n    }\n  ": types.CatalogAndPublishesDocument,
    "query GqlEvaluate($partnerId: ID!, $flagKey: String!, $key: String!, $kind: String) { evaluateFlag(partnerId: $partnerId, flagKey: $flagKey, key: $key, kind: $kind) { flagKey value enabled reason } }": types.GqlEvaluateDocument,
    "mutation GqlAddFlag($input: ChangeContextsInput!) { addFlagContexts(input: $input) { flagKey targets { key kind } } }": types.GqlAddFlagDocument,
    "mutation GqlRemoveFlag($input: ChangeContextsInput!) { removeFlagContexts(input: $input) { flagKey targets { key kind } } }": types.GqlRemoveFlagDocument,
    "mutation GqlAddSegment($input: ChangeContextsInput!) { addSegmentContexts(input: $input) { segmentKey targets { key kind } } }": types.GqlAddSegmentDocument,
    "query GqlSearch($q: String, $kind: String, $limit: String) { searchContexts(q: $q, kind: $kind, limit: $limit) { contexts { key kind flags segments } } }": types.GqlSearchDocument,
    "mutation GqlCreateOrg($input: CreateOrganizationInput!) { createOrganization(input: $input) { orgId userId } }": types.GqlCreateOrgDocument,
    "\n  mutation GqlInit($input: InitializeOnboardingInput!) {\n    initializeOnboarding(input: $input) { onboarding { id status entryUrl type source partnerOrgId } }\n  }\n": types.GqlInitDocument,
    "mutation GqlComplete($input: CompleteOnboardingInput!) { completeOnboarding(input: $input) { id status integrationId } }": types.GqlCompleteDocument,
    "subscription GqlOnboardingUpdated($id: ID!) { onboardingUpdated(id: $id) { id status integrationId } }": types.GqlOnboardingUpdatedDocument,
    "\n  query GqlOnboardingLocations($id: ID!) {\n    onboardingLocations(onboardingId: $id) { locations { providerId name isEligibleToOnboard address { locality country } } }\n  }\n": types.GqlOnboardingLocationsDocument,
    "mutation GqlIngest($input: IngestLocationsInput!) { ingestLocations(input: $input) { locations { id providerId } } }": types.GqlIngestDocument,
    "mutation GqlBind($input: BindDspLocationsInput!) { bindDspLocations(input: $input) { locations { id dspProviderId dspStoreName status } } }": types.GqlBindDocument,
    "\n  query GqlOrgLocations($orgId: ID!) {\n    organizationLocations(orgId: $orgId) {\n      locations { id name source status providerId integrationStatus prepTimeMinutes busy { extraPrepMinutes untilMs } openNow opensAt closesAt menus { providerId } address { locality country } dsps { id name source status dspStoreId changeTime menuProviderIds integrationStatus } }\n    }\n  }\n": types.GqlOrgLocationsDocument,
    "mutation GqlAssign($input: AssignMenusInput!) { assignMenus(input: $input) { dspLocationId menuProviderIds } }": types.GqlAssignDocument,
    "mutation GqlDelete($input: DeleteLocationInput!) { deleteLocation(input: $input) { id deleted } }": types.GqlDeleteDocument,
    "mutation GqlSso($partnerId: ID, $input: GenerateSsoSessionInput!) { generateSsoSession(partnerId: $partnerId, input: $input) { ssoLoginToken } }": types.GqlSsoDocument,
    "subscription OrderUpdated($orgId: ID!) { orderUpdated(orgId: $orgId) { id status deliveryStatus posOrderId driver { name } } }": types.OrderUpdatedDocument,
    "query DeadDeliveries { deliveries(status: \"dead\") { id kind status attempts lastStatus lastError idempotencyKey } }": types.DeadDeliveriesDocument,
    "mutation Redeliver($id: ID!) { redeliver(id: $id) { id status attempts } }": types.RedeliverDocument,
    "\n    query OrdersPage($orgId: ID!, $status: OrderStatus, $locationId: ID, $dspSource: String, $first: Int, $after: ID, $from: Float) {\n      orders(orgId: $orgId, status: $status, locationId: $locationId, dspSource: $dspSource, first: $first, after: $after, from: $from) {\n        orders { id status dspOrderNumber }\n        nextCursor\n        totalCount\n      }\n    }\n  ": types.OrdersPageDocument,
    "query ProviderNames { providers { source kind name } }": types.ProviderNamesDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query EndOfDayTestStatement($orgId: ID!, $locationId: ID!, $date: String!) {\n    dailyStatements(orgId: $orgId, locationId: $locationId, from: $date, to: $date) {\n      date\n      platforms { ...EndOfDayTestLine }\n      totals { ...EndOfDayTestLine }\n    }\n  }\n  fragment EndOfDayTestLine on StatementLine {\n    source currency taken awaiting failed failedByReason { reason orders }\n    canceledByMerchant canceledByDsp\n    amounts { subtotal tax taxWithheldByDsp deliveryFee deliveryFeeTax restaurantTip driverTip discountMerchant discountDsp markup total }\n    payout { commissionPercent commission payout }\n  }\n"): (typeof documents)["\n  query EndOfDayTestStatement($orgId: ID!, $locationId: ID!, $date: String!) {\n    dailyStatements(orgId: $orgId, locationId: $locationId, from: $date, to: $date) {\n      date\n      platforms { ...EndOfDayTestLine }\n      totals { ...EndOfDayTestLine }\n    }\n  }\n  fragment EndOfDayTestLine on StatementLine {\n    source currency taken awaiting failed failedByReason { reason orders }\n    canceledByMerchant canceledByDsp\n    amounts { subtotal tax taxWithheldByDsp deliveryFee deliveryFeeTax restaurantTip driverTip discountMerchant discountDsp markup total }\n    payout { commissionPercent commission payout }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "subscription MultiOrderUpdated($orgId: ID!) { orderUpdated(orgId: $orgId) { id status } }"): (typeof documents)["subscription MultiOrderUpdated($orgId: ID!) { orderUpdated(orgId: $orgId) { id status } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Locations($orgId: ID!) { organizationLocations(orgId: $orgId) { locations { id status } } }"): (typeof documents)["query Locations($orgId: ID!) { organizationLocations(orgId: $orgId) { locations { id status } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "subscription Orders($orgId: ID!) { orderUpdated(orgId: $orgId) { id status } }"): (typeof documents)["subscription Orders($orgId: ID!) { orderUpdated(orgId: $orgId) { id status } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation Token($input: TokenInput!) {\n        token(input: $input) { accessToken tokenType expiresIn scopes refreshToken }\n      }\n    "): (typeof documents)["\n      mutation Token($input: TokenInput!) {\n        token(input: $input) { accessToken tokenType expiresIn scopes refreshToken }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query OrgById($id: ID!) { organization(id: $id) { id name } }"): (typeof documents)["query OrgById($id: ID!) { organization(id: $id) { id name } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query OrgName($id: ID!) { organization(id: $id) { id name users { email } } }"): (typeof documents)["query OrgName($id: ID!) { organization(id: $id) { id name users { email } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation NamedToken($input: CreatePartnerTokenInput!) {\n        createPartnerToken(input: $input) { id orgId tokenName scopes accessToken expiresIn }\n      }\n    "): (typeof documents)["\n      mutation NamedToken($input: CreatePartnerTokenInput!) {\n        createPartnerToken(input: $input) { id orgId tokenName scopes accessToken expiresIn }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    query CatalogAndPublishes($orgId: ID!, $locationId: ID) {\n      organizationLocations(orgId: $orgId, locationId: $locationId) {\n        locations {\n          id\n          catalog { version fetchedAt currency problems menus { providerId name categoryIds } items { providerId name price { amount currency } } modifierGroups { providerId modifierIds } taxes { providerId rate } }\n          dsps { id dspStoreId menuProviderIds publishes(last: 5) { status menuProviderIds catalogVersion error } }\n        }\n      }\n    }\n  "): (typeof documents)["\n    query CatalogAndPublishes($orgId: ID!, $locationId: ID) {\n      organizationLocations(orgId: $orgId, locationId: $locationId) {\n        locations {\n          id\n          catalog { version fetchedAt currency problems menus { providerId name categoryIds } items { providerId name price { amount currency } } modifierGroups { providerId modifierIds } taxes { providerId rate } }\n          dsps { id dspStoreId menuProviderIds publishes(last: 5) { status menuProviderIds catalogVersion error } }\n        }\n      }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query GqlEvaluate($partnerId: ID!, $flagKey: String!, $key: String!, $kind: String) { evaluateFlag(partnerId: $partnerId, flagKey: $flagKey, key: $key, kind: $kind) { flagKey value enabled reason } }"): (typeof documents)["query GqlEvaluate($partnerId: ID!, $flagKey: String!, $key: String!, $kind: String) { evaluateFlag(partnerId: $partnerId, flagKey: $flagKey, key: $key, kind: $kind) { flagKey value enabled reason } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation GqlAddFlag($input: ChangeContextsInput!) { addFlagContexts(input: $input) { flagKey targets { key kind } } }"): (typeof documents)["mutation GqlAddFlag($input: ChangeContextsInput!) { addFlagContexts(input: $input) { flagKey targets { key kind } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation GqlRemoveFlag($input: ChangeContextsInput!) { removeFlagContexts(input: $input) { flagKey targets { key kind } } }"): (typeof documents)["mutation GqlRemoveFlag($input: ChangeContextsInput!) { removeFlagContexts(input: $input) { flagKey targets { key kind } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation GqlAddSegment($input: ChangeContextsInput!) { addSegmentContexts(input: $input) { segmentKey targets { key kind } } }"): (typeof documents)["mutation GqlAddSegment($input: ChangeContextsInput!) { addSegmentContexts(input: $input) { segmentKey targets { key kind } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query GqlSearch($q: String, $kind: String, $limit: String) { searchContexts(q: $q, kind: $kind, limit: $limit) { contexts { key kind flags segments } } }"): (typeof documents)["query GqlSearch($q: String, $kind: String, $limit: String) { searchContexts(q: $q, kind: $kind, limit: $limit) { contexts { key kind flags segments } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation GqlCreateOrg($input: CreateOrganizationInput!) { createOrganization(input: $input) { orgId userId } }"): (typeof documents)["mutation GqlCreateOrg($input: CreateOrganizationInput!) { createOrganization(input: $input) { orgId userId } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation GqlInit($input: InitializeOnboardingInput!) {\n    initializeOnboarding(input: $input) { onboarding { id status entryUrl type source partnerOrgId } }\n  }\n"): (typeof documents)["\n  mutation GqlInit($input: InitializeOnboardingInput!) {\n    initializeOnboarding(input: $input) { onboarding { id status entryUrl type source partnerOrgId } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation GqlComplete($input: CompleteOnboardingInput!) { completeOnboarding(input: $input) { id status integrationId } }"): (typeof documents)["mutation GqlComplete($input: CompleteOnboardingInput!) { completeOnboarding(input: $input) { id status integrationId } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "subscription GqlOnboardingUpdated($id: ID!) { onboardingUpdated(id: $id) { id status integrationId } }"): (typeof documents)["subscription GqlOnboardingUpdated($id: ID!) { onboardingUpdated(id: $id) { id status integrationId } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query GqlOnboardingLocations($id: ID!) {\n    onboardingLocations(onboardingId: $id) { locations { providerId name isEligibleToOnboard address { locality country } } }\n  }\n"): (typeof documents)["\n  query GqlOnboardingLocations($id: ID!) {\n    onboardingLocations(onboardingId: $id) { locations { providerId name isEligibleToOnboard address { locality country } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation GqlIngest($input: IngestLocationsInput!) { ingestLocations(input: $input) { locations { id providerId } } }"): (typeof documents)["mutation GqlIngest($input: IngestLocationsInput!) { ingestLocations(input: $input) { locations { id providerId } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation GqlBind($input: BindDspLocationsInput!) { bindDspLocations(input: $input) { locations { id dspProviderId dspStoreName status } } }"): (typeof documents)["mutation GqlBind($input: BindDspLocationsInput!) { bindDspLocations(input: $input) { locations { id dspProviderId dspStoreName status } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query GqlOrgLocations($orgId: ID!) {\n    organizationLocations(orgId: $orgId) {\n      locations { id name source status providerId integrationStatus prepTimeMinutes busy { extraPrepMinutes untilMs } openNow opensAt closesAt menus { providerId } address { locality country } dsps { id name source status dspStoreId changeTime menuProviderIds integrationStatus } }\n    }\n  }\n"): (typeof documents)["\n  query GqlOrgLocations($orgId: ID!) {\n    organizationLocations(orgId: $orgId) {\n      locations { id name source status providerId integrationStatus prepTimeMinutes busy { extraPrepMinutes untilMs } openNow opensAt closesAt menus { providerId } address { locality country } dsps { id name source status dspStoreId changeTime menuProviderIds integrationStatus } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation GqlAssign($input: AssignMenusInput!) { assignMenus(input: $input) { dspLocationId menuProviderIds } }"): (typeof documents)["mutation GqlAssign($input: AssignMenusInput!) { assignMenus(input: $input) { dspLocationId menuProviderIds } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation GqlDelete($input: DeleteLocationInput!) { deleteLocation(input: $input) { id deleted } }"): (typeof documents)["mutation GqlDelete($input: DeleteLocationInput!) { deleteLocation(input: $input) { id deleted } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation GqlSso($partnerId: ID, $input: GenerateSsoSessionInput!) { generateSsoSession(partnerId: $partnerId, input: $input) { ssoLoginToken } }"): (typeof documents)["mutation GqlSso($partnerId: ID, $input: GenerateSsoSessionInput!) { generateSsoSession(partnerId: $partnerId, input: $input) { ssoLoginToken } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "subscription OrderUpdated($orgId: ID!) { orderUpdated(orgId: $orgId) { id status deliveryStatus posOrderId driver { name } } }"): (typeof documents)["subscription OrderUpdated($orgId: ID!) { orderUpdated(orgId: $orgId) { id status deliveryStatus posOrderId driver { name } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query DeadDeliveries { deliveries(status: \"dead\") { id kind status attempts lastStatus lastError idempotencyKey } }"): (typeof documents)["query DeadDeliveries { deliveries(status: \"dead\") { id kind status attempts lastStatus lastError idempotencyKey } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation Redeliver($id: ID!) { redeliver(id: $id) { id status attempts } }"): (typeof documents)["mutation Redeliver($id: ID!) { redeliver(id: $id) { id status attempts } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    query OrdersPage($orgId: ID!, $status: OrderStatus, $locationId: ID, $dspSource: String, $first: Int, $after: ID, $from: Float) {\n      orders(orgId: $orgId, status: $status, locationId: $locationId, dspSource: $dspSource, first: $first, after: $after, from: $from) {\n        orders { id status dspOrderNumber }\n        nextCursor\n        totalCount\n      }\n    }\n  "): (typeof documents)["\n    query OrdersPage($orgId: ID!, $status: OrderStatus, $locationId: ID, $dspSource: String, $first: Int, $after: ID, $from: Float) {\n      orders(orgId: $orgId, status: $status, locationId: $locationId, dspSource: $dspSource, first: $first, after: $after, from: $from) {\n        orders { id status dspOrderNumber }\n        nextCursor\n        totalCount\n      }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ProviderNames { providers { source kind name } }"): (typeof documents)["query ProviderNames { providers { source kind name } }"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;