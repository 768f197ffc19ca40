import DataConnectTime

/// Proleptic Gregorian calendar arithmetic, for the SDK's `LocalDate`: the shared kit's implementation.
package typealias CivilCalendar = DataConnectTime.CivilCalendar
