/* eslint-disable */
import * as types from './graphql.js';



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
    "\n  query DashboardViewer {\n    me {\n      canRedeliver canControlStores canChooseEventProvider canReadEndOfDay\n      user { email fullName role }\n      organization { id name createdAt }\n    }\n    providers { source kind name }\n  }\n": typeof types.DashboardViewerDocument,
    "\n  fragment DashboardLocation on Location {\n    id\n    name\n    source\n    timezone\n    openNow opensAt closesAt\n    prepTimeMinutes busy { extraPrepMinutes untilMs }\n    closedDays { date name }\n    offSale { itemId untilMs }\n    catalog { currency defaultLanguage items { providerId name } modifiers { providerId name } }\n    dsps { id name source dspStoreId status pausedUntil dspStatus publishes(last: 1) { status menuProviderIds catalogVersion error createdAt } }\n  }\n": typeof types.DashboardLocationFragmentDoc,
    "\n  fragment DashboardOnboarding on Onboarding { id type source status }\n": typeof types.DashboardOnboardingFragmentDoc,
    "\n  fragment DashboardDelivery on Delivery { id kind source status attempts lastStatus lastError createdAt }\n": typeof types.DashboardDeliveryFragmentDoc,
    "\n  query DashboardOverview($orgId: ID!) {\n    organization(id: $orgId) { onboardings { ...DashboardOnboarding } }\n    organizationLocations(orgId: $orgId) { locations { ...DashboardLocation } }\n  }\n": typeof types.DashboardOverviewDocument,
    "\n  query DashboardDeliveries {\n    deliveries(status: \"dead\", first: 50) { ...DashboardDelivery }\n  }\n": typeof types.DashboardDeliveriesDocument,
    "\n  subscription DashboardOrderUpdates($orgId: ID!) { orderUpdated(orgId: $orgId) { ...DashboardOrder } }\n": typeof types.DashboardOrderUpdatesDocument,
    "\n  subscription DashboardChanges($orgId: ID!) {\n    organizationChanged(orgId: $orgId) {\n      kind\n      id\n      location { ...DashboardLocation }\n      onboarding { ...DashboardOnboarding }\n      delivery { ...DashboardDelivery }\n    }\n  }\n": typeof types.DashboardChangesDocument,
    "\n  mutation DashboardRedeliver($id: ID!) { redeliver(id: $id) { id status } }\n": typeof types.DashboardRedeliverDocument,
    "\n  query DashboardStats($orgId: ID!, $from: Float!, $to: Float!) {\n    orderStats(orgId: $orgId, from: $from, to: $to) { byHour { hour dspSource orders failed } failures { reason orders } }\n  }\n": typeof types.DashboardStatsDocument,
    "\n  query DashboardDispatch($orgId: ID!) {\n    organization(id: $orgId) { eventProvider eventProviderInUse eventProviderChoices }\n  }\n": typeof types.DashboardDispatchDocument,
    "\n  mutation DashboardSetEventProvider($input: SetEventProviderInput!) { setEventProvider(input: $input) { eventProvider } }\n": typeof types.DashboardSetEventProviderDocument,
    "\n  query DashboardEndOfDay($orgId: ID!, $locationId: ID!, $date: String!) {\n    dailyStatements(orgId: $orgId, locationId: $locationId, from: $date, to: $date) {\n      date timeZone hours\n      platforms { ...DashboardStatementLine }\n      totals { ...DashboardStatementLine }\n    }\n  }\n": typeof types.DashboardEndOfDayDocument,
    "\n  fragment DashboardStatementLine on StatementLine {\n    source currency taken awaiting\n    failed failedByReason { reason orders }\n    canceledByMerchant canceledByMerchantByReason { reason orders }\n    canceledByDsp canceledByDspByReason { reason orders }\n    amounts {\n      subtotal tax taxWithheldByDsp deliveryFee deliveryFeeTax restaurantTip driverTip discountMerchant discountDsp markup total\n    }\n    payout { subtotal tax restaurantTip discountMerchant commissionPercent commission payout }\n  }\n": typeof types.DashboardStatementLineFragmentDoc,
    "\n  query DashboardOrderDetail($id: ID!) {\n    order(id: $id) {\n      id dspOrderNumber dspSource dspStoreId locationId status deliveryStatus fulfillmentType failureReason failureDetails order createdAt\n      total { amount currency }\n      amounts {\n        subtotal { amount } tax { amount } taxWithheldByDsp { amount } deliveryFee { amount } deliveryFeeTax { amount }\n        restaurantTip { amount } driverTip { amount } markup { amount } total { amount }\n        discounts { name amount { amount } fundedBy merchantAmount { amount } }\n      }\n      cancellation { by reason details }\n      eventProvider estimatedDropoffTime estimatedReadyTime\n      driver { name source phone { number code } vehicleInfo { make model color licensePlate } }\n      customer { name phone maskedPhoneCode }\n      timeline { at what status deliveryStatus failureReason driverName note }\n    }\n  }\n": typeof types.DashboardOrderDetailDocument,
    "\n  fragment DashboardOrder on Order {\n    id dspOrderId dspOrderNumber dspSource status deliveryStatus fulfillmentType locationId failureReason failureDetails createdAt updatedAt\n    customer { name }\n    driver { name vehicleInfo { make model color licensePlate } }\n    total { amount currency }\n    prepTimeMinutes estimatedReadyTime\n  }\n": typeof types.DashboardOrderFragmentDoc,
    "\n  query DashboardOrders($orgId: ID!, $status: OrderStatus, $locationId: ID, $dspSource: String, $from: Float, $to: Float, $after: ID) {\n    orders(orgId: $orgId, status: $status, locationId: $locationId, dspSource: $dspSource, from: $from, to: $to, first: 50, after: $after) {\n      totalCount\n      nextCursor\n      orders {\n        id dspOrderId dspOrderNumber dspSource status deliveryStatus fulfillmentType locationId failureReason failureDetails createdAt updatedAt\n        customer { name }\n        driver { name vehicleInfo { make model color licensePlate } }\n        total { amount currency }\n        prepTimeMinutes estimatedReadyTime\n      }\n    }\n  }\n": typeof types.DashboardOrdersDocument,
    "\n  query DashboardOrderCount($orgId: ID!, $status: OrderStatus, $locationId: ID, $dspSource: String, $from: Float, $to: Float) {\n    orders(orgId: $orgId, status: $status, locationId: $locationId, dspSource: $dspSource, from: $from, to: $to, first: 1) { totalCount }\n  }\n": typeof types.DashboardOrderCountDocument,
    "\n  mutation DashboardPause($input: PauseStoresInput!) { pauseStores(input: $input) { locations { id pausedUntil } } }\n": typeof types.DashboardPauseDocument,
    "\n  mutation DashboardResume($input: ResumeStoresInput!) { resumeStores(input: $input) { locations { id pausedUntil } } }\n": typeof types.DashboardResumeDocument,
    "\n  mutation DashboardBusy($input: SetLocationBusyInput!) { setLocationBusy(input: $input) { locationId extraPrepMinutes untilMs } }\n": typeof types.DashboardBusyDocument,
    "\n  mutation DashboardEndBusy($input: EndLocationBusyInput!) { endLocationBusy(input: $input) { locationId extraPrepMinutes } }\n": typeof types.DashboardEndBusyDocument,
    "\n  mutation DashboardAvailability($input: SetItemAvailabilityInput!) { setItemAvailability(input: $input) { unavailable { itemId untilMs } } }\n": typeof types.DashboardAvailabilityDocument,
};
const documents: Documents = {
    "\n  query DashboardViewer {\n    me {\n      canRedeliver canControlStores canChooseEventProvider canReadEndOfDay\n      user { email fullName role }\n      organization { id name createdAt }\n    }\n    providers { source kind name }\n  }\n": types.DashboardViewerDocument,
    "\n  fragment DashboardLocation on Location {\n    id\n    name\n    source\n    timezone\n    openNow opensAt closesAt\n    prepTimeMinutes busy { extraPrepMinutes untilMs }\n    closedDays { date name }\n    offSale { itemId untilMs }\n    catalog { currency defaultLanguage items { providerId name } modifiers { providerId name } }\n    dsps { id name source dspStoreId status pausedUntil dspStatus publishes(last: 1) { status menuProviderIds catalogVersion error createdAt } }\n  }\n": types.DashboardLocationFragmentDoc,
    "\n  fragment DashboardOnboarding on Onboarding { id type source status }\n": types.DashboardOnboardingFragmentDoc,
    "\n  fragment DashboardDelivery on Delivery { id kind source status attempts lastStatus lastError createdAt }\n": types.DashboardDeliveryFragmentDoc,
    "\n  query DashboardOverview($orgId: ID!) {\n    organization(id: $orgId) { onboardings { ...DashboardOnboarding } }\n    organizationLocations(orgId: $orgId) { locations { ...DashboardLocation } }\n  }\n": types.DashboardOverviewDocument,
    "\n  query DashboardDeliveries {\n    deliveries(status: \"dead\", first: 50) { ...DashboardDelivery }\n  }\n": types.DashboardDeliveriesDocument,
    "\n  subscription DashboardOrderUpdates($orgId: ID!) { orderUpdated(orgId: $orgId) { ...DashboardOrder } }\n": types.DashboardOrderUpdatesDocument,
    "\n  subscription DashboardChanges($orgId: ID!) {\n    organizationChanged(orgId: $orgId) {\n      kind\n      id\n      location { ...DashboardLocation }\n      onboarding { ...DashboardOnboarding }\n      delivery { ...DashboardDelivery }\n    }\n  }\n": types.DashboardChangesDocument,
    "\n  mutation DashboardRedeliver($id: ID!) { redeliver(id: $id) { id status } }\n": types.DashboardRedeliverDocument,
    "\n  query DashboardStats($orgId: ID!, $from: Float!, $to: Float!) {\n    orderStats(orgId: $orgId, from: $from, to: $to) { byHour { hour dspSource orders failed } failures { reason orders } }\n  }\n": types.DashboardStatsDocument,
    "\n  query DashboardDispatch($orgId: ID!) {\n    organization(id: $orgId) { eventProvider eventProviderInUse eventProviderChoices }\n  }\n": types.DashboardDispatchDocument,
    "\n  mutation DashboardSetEventProvider($input: SetEventProviderInput!) { setEventProvider(input: $input) { eventProvider } }\n": types.DashboardSetEventProviderDocument,
    "\n  query DashboardEndOfDay($orgId: ID!, $locationId: ID!, $date: String!) {\n    dailyStatements(orgId: $orgId, locationId: $locationId, from: $date, to: $date) {\n      date timeZone hours\n      platforms { ...DashboardStatementLine }\n      totals { ...DashboardStatementLine }\n    }\n  }\n": types.DashboardEndOfDayDocument,
    "\n  fragment DashboardStatementLine on StatementLine {\n    source currency taken awaiting\n    failed failedByReason { reason orders }\n    canceledByMerchant canceledByMerchantByReason { reason orders }\n    canceledByDsp canceledByDspByReason { reason orders }\n    amounts {\n      subtotal tax taxWithheldByDsp deliveryFee deliveryFeeTax restaurantTip driverTip discountMerchant discountDsp markup total\n    }\n    payout { subtotal tax restaurantTip discountMerchant commissionPercent commission payout }\n  }\n": types.DashboardStatementLineFragmentDoc,
    "\n  query DashboardOrderDetail($id: ID!) {\n    order(id: $id) {\n      id dspOrderNumber dspSource dspStoreId locationId status deliveryStatus fulfillmentType failureReason failureDetails order createdAt\n      total { amount currency }\n      amounts {\n        subtotal { amount } tax { amount } taxWithheldByDsp { amount } deliveryFee { amount } deliveryFeeTax { amount }\n        restaurantTip { amount } driverTip { amount } markup { amount } total { amount }\n        discounts { name amount { amount } fundedBy merchantAmount { amount } }\n      }\n      cancellation { by reason details }\n      eventProvider estimatedDropoffTime estimatedReadyTime\n      driver { name source phone { number code } vehicleInfo { make model color licensePlate } }\n      customer { name phone maskedPhoneCode }\n      timeline { at what status deliveryStatus failureReason driverName note }\n    }\n  }\n": types.DashboardOrderDetailDocument,
    "\n  fragment DashboardOrder on Order {\n    id dspOrderId dspOrderNumber dspSource status deliveryStatus fulfillmentType locationId failureReason failureDetails createdAt updatedAt\n    customer { name }\n    driver { name vehicleInfo { make model color licensePlate } }\n    total { amount currency }\n    prepTimeMinutes estimatedReadyTime\n  }\n": types.DashboardOrderFragmentDoc,
    "\n  query DashboardOrders($orgId: ID!, $status: OrderStatus, $locationId: ID, $dspSource: String, $from: Float, $to: Float, $after: ID) {\n    orders(orgId: $orgId, status: $status, locationId: $locationId, dspSource: $dspSource, from: $from, to: $to, first: 50, after: $after) {\n      totalCount\n      nextCursor\n      orders {\n        id dspOrderId dspOrderNumber dspSource status deliveryStatus fulfillmentType locationId failureReason failureDetails createdAt updatedAt\n        customer { name }\n        driver { name vehicleInfo { make model color licensePlate } }\n        total { amount currency }\n        prepTimeMinutes estimatedReadyTime\n      }\n    }\n  }\n": types.DashboardOrdersDocument,
    "\n  query DashboardOrderCount($orgId: ID!, $status: OrderStatus, $locationId: ID, $dspSource: String, $from: Float, $to: Float) {\n    orders(orgId: $orgId, status: $status, locationId: $locationId, dspSource: $dspSource, from: $from, to: $to, first: 1) { totalCount }\n  }\n": types.DashboardOrderCountDocument,
    "\n  mutation DashboardPause($input: PauseStoresInput!) { pauseStores(input: $input) { locations { id pausedUntil } } }\n": types.DashboardPauseDocument,
    "\n  mutation DashboardResume($input: ResumeStoresInput!) { resumeStores(input: $input) { locations { id pausedUntil } } }\n": types.DashboardResumeDocument,
    "\n  mutation DashboardBusy($input: SetLocationBusyInput!) { setLocationBusy(input: $input) { locationId extraPrepMinutes untilMs } }\n": types.DashboardBusyDocument,
    "\n  mutation DashboardEndBusy($input: EndLocationBusyInput!) { endLocationBusy(input: $input) { locationId extraPrepMinutes } }\n": types.DashboardEndBusyDocument,
    "\n  mutation DashboardAvailability($input: SetItemAvailabilityInput!) { setItemAvailability(input: $input) { unavailable { itemId untilMs } } }\n": types.DashboardAvailabilityDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardViewer {\n    me {\n      canRedeliver canControlStores canChooseEventProvider canReadEndOfDay\n      user { email fullName role }\n      organization { id name createdAt }\n    }\n    providers { source kind name }\n  }\n"): typeof import('./graphql.js').DashboardViewerDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment DashboardLocation on Location {\n    id\n    name\n    source\n    timezone\n    openNow opensAt closesAt\n    prepTimeMinutes busy { extraPrepMinutes untilMs }\n    closedDays { date name }\n    offSale { itemId untilMs }\n    catalog { currency defaultLanguage items { providerId name } modifiers { providerId name } }\n    dsps { id name source dspStoreId status pausedUntil dspStatus publishes(last: 1) { status menuProviderIds catalogVersion error createdAt } }\n  }\n"): typeof import('./graphql.js').DashboardLocationFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment DashboardOnboarding on Onboarding { id type source status }\n"): typeof import('./graphql.js').DashboardOnboardingFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment DashboardDelivery on Delivery { id kind source status attempts lastStatus lastError createdAt }\n"): typeof import('./graphql.js').DashboardDeliveryFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardOverview($orgId: ID!) {\n    organization(id: $orgId) { onboardings { ...DashboardOnboarding } }\n    organizationLocations(orgId: $orgId) { locations { ...DashboardLocation } }\n  }\n"): typeof import('./graphql.js').DashboardOverviewDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardDeliveries {\n    deliveries(status: \"dead\", first: 50) { ...DashboardDelivery }\n  }\n"): typeof import('./graphql.js').DashboardDeliveriesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DashboardOrderUpdates($orgId: ID!) { orderUpdated(orgId: $orgId) { ...DashboardOrder } }\n"): typeof import('./graphql.js').DashboardOrderUpdatesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DashboardChanges($orgId: ID!) {\n    organizationChanged(orgId: $orgId) {\n      kind\n      id\n      location { ...DashboardLocation }\n      onboarding { ...DashboardOnboarding }\n      delivery { ...DashboardDelivery }\n    }\n  }\n"): typeof import('./graphql.js').DashboardChangesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardRedeliver($id: ID!) { redeliver(id: $id) { id status } }\n"): typeof import('./graphql.js').DashboardRedeliverDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardStats($orgId: ID!, $from: Float!, $to: Float!) {\n    orderStats(orgId: $orgId, from: $from, to: $to) { byHour { hour dspSource orders failed } failures { reason orders } }\n  }\n"): typeof import('./graphql.js').DashboardStatsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardDispatch($orgId: ID!) {\n    organization(id: $orgId) { eventProvider eventProviderInUse eventProviderChoices }\n  }\n"): typeof import('./graphql.js').DashboardDispatchDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardSetEventProvider($input: SetEventProviderInput!) { setEventProvider(input: $input) { eventProvider } }\n"): typeof import('./graphql.js').DashboardSetEventProviderDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardEndOfDay($orgId: ID!, $locationId: ID!, $date: String!) {\n    dailyStatements(orgId: $orgId, locationId: $locationId, from: $date, to: $date) {\n      date timeZone hours\n      platforms { ...DashboardStatementLine }\n      totals { ...DashboardStatementLine }\n    }\n  }\n"): typeof import('./graphql.js').DashboardEndOfDayDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment DashboardStatementLine on StatementLine {\n    source currency taken awaiting\n    failed failedByReason { reason orders }\n    canceledByMerchant canceledByMerchantByReason { reason orders }\n    canceledByDsp canceledByDspByReason { reason orders }\n    amounts {\n      subtotal tax taxWithheldByDsp deliveryFee deliveryFeeTax restaurantTip driverTip discountMerchant discountDsp markup total\n    }\n    payout { subtotal tax restaurantTip discountMerchant commissionPercent commission payout }\n  }\n"): typeof import('./graphql.js').DashboardStatementLineFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardOrderDetail($id: ID!) {\n    order(id: $id) {\n      id dspOrderNumber dspSource dspStoreId locationId status deliveryStatus fulfillmentType failureReason failureDetails order createdAt\n      total { amount currency }\n      amounts {\n        subtotal { amount } tax { amount } taxWithheldByDsp { amount } deliveryFee { amount } deliveryFeeTax { amount }\n        restaurantTip { amount } driverTip { amount } markup { amount } total { amount }\n        discounts { name amount { amount } fundedBy merchantAmount { amount } }\n      }\n      cancellation { by reason details }\n      eventProvider estimatedDropoffTime estimatedReadyTime\n      driver { name source phone { number code } vehicleInfo { make model color licensePlate } }\n      customer { name phone maskedPhoneCode }\n      timeline { at what status deliveryStatus failureReason driverName note }\n    }\n  }\n"): typeof import('./graphql.js').DashboardOrderDetailDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment DashboardOrder on Order {\n    id dspOrderId dspOrderNumber dspSource status deliveryStatus fulfillmentType locationId failureReason failureDetails createdAt updatedAt\n    customer { name }\n    driver { name vehicleInfo { make model color licensePlate } }\n    total { amount currency }\n    prepTimeMinutes estimatedReadyTime\n  }\n"): typeof import('./graphql.js').DashboardOrderFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardOrders($orgId: ID!, $status: OrderStatus, $locationId: ID, $dspSource: String, $from: Float, $to: Float, $after: ID) {\n    orders(orgId: $orgId, status: $status, locationId: $locationId, dspSource: $dspSource, from: $from, to: $to, first: 50, after: $after) {\n      totalCount\n      nextCursor\n      orders {\n        id dspOrderId dspOrderNumber dspSource status deliveryStatus fulfillmentType locationId failureReason failureDetails createdAt updatedAt\n        customer { name }\n        driver { name vehicleInfo { make model color licensePlate } }\n        total { amount currency }\n        prepTimeMinutes estimatedReadyTime\n      }\n    }\n  }\n"): typeof import('./graphql.js').DashboardOrdersDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardOrderCount($orgId: ID!, $status: OrderStatus, $locationId: ID, $dspSource: String, $from: Float, $to: Float) {\n    orders(orgId: $orgId, status: $status, locationId: $locationId, dspSource: $dspSource, from: $from, to: $to, first: 1) { totalCount }\n  }\n"): typeof import('./graphql.js').DashboardOrderCountDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardPause($input: PauseStoresInput!) { pauseStores(input: $input) { locations { id pausedUntil } } }\n"): typeof import('./graphql.js').DashboardPauseDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardResume($input: ResumeStoresInput!) { resumeStores(input: $input) { locations { id pausedUntil } } }\n"): typeof import('./graphql.js').DashboardResumeDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardBusy($input: SetLocationBusyInput!) { setLocationBusy(input: $input) { locationId extraPrepMinutes untilMs } }\n"): typeof import('./graphql.js').DashboardBusyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardEndBusy($input: EndLocationBusyInput!) { endLocationBusy(input: $input) { locationId extraPrepMinutes } }\n"): typeof import('./graphql.js').DashboardEndBusyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardAvailability($input: SetItemAvailabilityInput!) { setItemAvailability(input: $input) { unavailable { itemId untilMs } } }\n"): typeof import('./graphql.js').DashboardAvailabilityDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
