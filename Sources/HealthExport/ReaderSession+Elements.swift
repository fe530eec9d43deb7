import CHealthSAX

// The element handlers: one start and one end callback per tag, dispatched on the element id
// the C glue matched by pointer. Elements with children are built between start and end.

extension ReaderSession {
    func start(_ s: UnsafePointer<hsax_start>) {
        let el = s.pointee.element
        let depth = Int(s.pointee.depth)
        let line = s.pointee.line
        let parent: Int32 = depth > 0 && depth - 1 < stack.count ? stack[depth - 1] : -1
        while stack.count > depth { stack.removeLast() }  // (removeLast(k) goes through replaceSubrange)
        stack.append(el)
        if el == Int32(HSAX_EL_UNKNOWN.rawValue) {
            unknownElementCounts[UnsafeRawPointer(s.pointee.name), default: 0] += 1
        } else {
            knownElementCounts[Int(el)] += 1
        }
        let a = Attributes(s)

        if depth == 0 {
            guard el == Int32(HSAX_EL_HEALTH_DATA.rawValue) else {
                let name = String(cString: s.pointee.name)
                fail(
                    ExportReadError.notHealthExport(
                        input: inputName, reason: "the root element is <\(name)>, not <HealthData>"))
                return
            }
            sawRoot = true
            locale = a.string(HSAX_A_LOCALE)
            return
        }

        switch hsax_element_id(rawValue: UInt32(el)) {
        case HSAX_EL_RECORD: startRecord(a, nested: parent == Int32(HSAX_EL_CORRELATION.rawValue), line: line)
        case HSAX_EL_METADATA_ENTRY: metadataEntry(a, parent: parent)
        case HSAX_EL_INSTANTANEOUS_BPM: instantaneousBeatsPerMinute(a, line: line)
        case HSAX_EL_WORKOUT: startWorkout(a, line: line)
        case HSAX_EL_WORKOUT_EVENT: startWorkoutEvent(a, line: line)
        case HSAX_EL_WORKOUT_STATISTICS: workoutStatistics(a, parent: parent, line: line)
        case HSAX_EL_WORKOUT_ACTIVITY: startWorkoutActivity(a, line: line)
        case HSAX_EL_WORKOUT_ROUTE: startWorkoutRoute(a, line: line)
        case HSAX_EL_FILE_REFERENCE: if route != nil, let path = a.string(HSAX_A_PATH) { route!.filePaths.append(path) }
        case HSAX_EL_LOCATION: location(a, line: line)
        case HSAX_EL_CORRELATION: startCorrelation(a, line: line)
        case HSAX_EL_ACTIVITY_SUMMARY: activitySummary(a, line: line)
        case HSAX_EL_EXPORT_DATE: exportDateElement(a, segment: s.pointee.segment, line: line)
        case HSAX_EL_ME: meElement(a, segment: s.pointee.segment)
        case HSAX_EL_CLINICAL_RECORD: clinicalRecord(a, line: line)
        case HSAX_EL_AUDIOGRAM: startAudiogram(a, line: line)
        case HSAX_EL_SENSITIVITY_POINT: sensitivityPoint(a, line: line)
        default: break
        }
    }

    // MARK: the start handlers `start` dispatches to (the ones not in a file of their own)

    /// `<InstantaneousBeatsPerMinute>` inside a heart-rate-variability `<Record>`'s list.
    private func instantaneousBeatsPerMinute(_ a: Attributes, line: Int32) {
        guard recordIndex >= 0,
            let bpm = optionalNumber(a, HSAX_A_BPM, "bpm", element: "InstantaneousBeatsPerMinute", line: line)
        else { return }
        batch.records[recordIndex].heartbeats.append(
            InstantaneousBeatsPerMinute(bpm: bpm, time: a.string(HSAX_A_TIME) ?? ""))
        batchBeats += 1
    }

    /// `<WorkoutEvent>`: kept until its end tag (it may hold metadata), dropped without a date.
    private func startWorkoutEvent(_ a: Attributes, line: Int32) {
        guard let date = requiredDate(a, HSAX_A_DATE, "date", element: "WorkoutEvent", line: line) else { return }
        event = WorkoutEvent(
            type: a.string(HSAX_A_TYPE) ?? "", date: date,
            durationMinutes: optionalQuantity(
                a, value: HSAX_A_DURATION, unit: HSAX_A_DURATION_UNIT, expected: .minute, "duration",
                element: "WorkoutEvent", line: line),
            metadata: [])
    }

    /// `<WorkoutActivity>` (iOS 16 and later): kept until its end tag, dropped without a start.
    private func startWorkoutActivity(_ a: Attributes, line: Int32) {
        guard let startDate = requiredDate(a, HSAX_A_START_DATE, "startDate", element: "WorkoutActivity", line: line)
        else { return }
        activity = WorkoutActivity(
            uuid: a.string(HSAX_A_UUID), startDate: startDate,
            endDate: optionalDate(a, HSAX_A_END_DATE, "endDate", element: "WorkoutActivity", line: line),
            durationMinutes: optionalQuantity(
                a, value: HSAX_A_DURATION, unit: HSAX_A_DURATION_UNIT, expected: .minute, "duration",
                element: "WorkoutActivity", line: line),
            metadata: [], events: [], statistics: [])
    }

    /// `<WorkoutRoute>`: its file references and locations follow as children.
    private func startWorkoutRoute(_ a: Attributes, line: Int32) {
        guard let attributes = sampleAttributes(a, element: "WorkoutRoute", line: line) else { return }
        route = WorkoutRoute(attributes: attributes, metadata: [], filePaths: [], locations: [])
    }

    /// The attributes of a `Correlation`, `Workout` or `WorkoutRoute`: nil, with a diagnostic,
    /// where a date is missing, not a date or implausible.
    private func sampleAttributes(_ a: Attributes, element: String, line: Int32) -> SampleAttributes? {
        guard let startDate = requiredDate(a, HSAX_A_START_DATE, "startDate", element: element, line: line),
            let endDate = requiredDate(a, HSAX_A_END_DATE, "endDate", element: element, line: line)
        else { return nil }
        return SampleAttributes(
            sourceName: a.raw(HSAX_A_SOURCE_NAME).map { symbols[Int(symbol($0))] } ?? "",
            sourceVersion: a.string(HSAX_A_SOURCE_VERSION), device: a.raw(HSAX_A_DEVICE).flatMap(device),
            creationDate: optionalDate(a, HSAX_A_CREATION_DATE, "creationDate", element: element, line: line),
            startDate: startDate, endDate: endDate)
    }

    /// `<ExportDate>`: checked against 1900 and the time of the read; it then bounds every later
    /// date (a day past it is the latest plausible).
    private func exportDateElement(_ a: Attributes, segment: Int32, line: Int32) {
        exportDate = requiredDate(a, HSAX_A_VALUE, "value", element: "ExportDate", line: line)
        exportDateSegment = segment
        if let t = exportDate { latestPlausible = t.secondsSince1970 + 86_400 }
    }

    /// `<Me>`: the person's characteristics, kept as given (never in cohort or MCP outputs).
    private func meElement(_ a: Attributes, segment: Int32) {
        meSegment = segment
        me = Me(
            dateOfBirth: a.string(HSAX_A_DATE_OF_BIRTH), biologicalSex: a.string(HSAX_A_BIOLOGICAL_SEX),
            bloodType: a.string(HSAX_A_BLOOD_TYPE), fitzpatrickSkinType: a.string(HSAX_A_FITZPATRICK_SKIN_TYPE),
            cardioFitnessMedicationsUse: a.string(HSAX_A_CARDIO_FITNESS_MEDICATIONS_USE))
    }

    /// `<ClinicalRecord>`: an empty element, complete at its start tag.
    private func clinicalRecord(_ a: Attributes, line: Int32) {
        batch.clinicalRecords.append(
            ClinicalRecord(
                type: a.string(HSAX_A_TYPE) ?? "", identifier: a.string(HSAX_A_IDENTIFIER),
                sourceName: a.string(HSAX_A_SOURCE_NAME) ?? "", sourceURL: a.string(HSAX_A_SOURCE_URL),
                fhirVersion: a.string(HSAX_A_FHIR_VERSION),
                receivedDate: optionalDate(
                    a, HSAX_A_RECEIVED_DATE, "receivedDate", element: "ClinicalRecord", line: line),
                resourceFilePath: a.string(HSAX_A_RESOURCE_FILE_PATH), line: Int(line)))
        elementDone()
    }

    /// `<Audiogram>`: its sensitivity points follow as children.
    private func startAudiogram(_ a: Attributes, line: Int32) {
        guard let startDate = requiredDate(a, HSAX_A_START_DATE, "startDate", element: "Audiogram", line: line),
            let endDate = requiredDate(a, HSAX_A_END_DATE, "endDate", element: "Audiogram", line: line)
        else { return }
        audiogram = Audiogram(
            sourceName: a.string(HSAX_A_SOURCE_NAME) ?? "", startDate: startDate, endDate: endDate,
            sensitivityPoints: [], metadata: [], line: Int(line))
    }

    /// `<SensitivityPoint>` of an `<Audiogram>`: dropped without its frequency.
    private func sensitivityPoint(_ a: Attributes, line: Int32) {
        guard audiogram != nil,
            let f = optionalNumber(a, HSAX_A_FREQUENCY_VALUE, "frequencyValue", element: "SensitivityPoint", line: line)
        else { return }
        audiogram!.sensitivityPoints.append(
            SensitivityPoint(
                frequencyHz: f,
                leftEarDBHL: optionalNumber(
                    a, HSAX_A_LEFT_EAR_VALUE, "leftEarValue", element: "SensitivityPoint", line: line),
                rightEarDBHL: optionalNumber(
                    a, HSAX_A_RIGHT_EAR_VALUE, "rightEarValue", element: "SensitivityPoint", line: line)))
    }

    func end(_ el: Int32, depth: Int) {
        if depth == 0 { rootEnded = true }
        switch hsax_element_id(rawValue: UInt32(el)) {
        case HSAX_EL_RECORD:
            if recordIndex >= 0 {
                if batch.records[recordIndex].isNestedInCorrelation {
                    correlation?.records.append(batch.records[recordIndex])
                }
                recordIndex = -1
                elementDone()
            }
        case HSAX_EL_WORKOUT_EVENT:
            if let e = event {
                if activity != nil { activity!.events.append(e) } else { workout?.events.append(e) }
                event = nil
            }
        case HSAX_EL_WORKOUT_ACTIVITY:
            if let act = activity {
                workout?.activities.append(act)
                activity = nil
            }
        case HSAX_EL_WORKOUT_ROUTE:
            if let r = route {
                workout?.routes.append(r)
                route = nil
            }
        case HSAX_EL_WORKOUT:
            if var w = workout {
                finishWorkoutTotals(&w)
                batch.workouts.append(w)
                workout = nil
                elementDone()
            }
        case HSAX_EL_CORRELATION:
            if let c = correlation {
                batch.correlations.append(c)
                correlation = nil
                elementDone()
            }
        case HSAX_EL_AUDIOGRAM:
            if let g = audiogram {
                batch.audiograms.append(g)
                audiogram = nil
                elementDone()
            }
        default:
            break
        }
    }

    // MARK: Records

    @inline(__always)
    func startRecord(_ a: Attributes, nested: Bool, line: Int32) {
        recordIndex = -1
        guard let typeValue = a.raw(HSAX_A_TYPE), let sourceValue = a.raw(HSAX_A_SOURCE_NAME) else {
            diagnose(.missingAttribute, "Record without " + (a.has(HSAX_A_TYPE) ? "sourceName" : "type"), line: line)
            return
        }
        let type = symbol(typeValue, .type)
        // Fast path: both dates well-formed; otherwise the slow path names the problem.
        guard let startBytes = a.bytes(HSAX_A_START_DATE), let startDate = dates.decode(startBytes),
            let endBytes = a.bytes(HSAX_A_END_DATE), let endDate = endDates.decode(endBytes)
        else {
            _ = requiredDate(a, HSAX_A_START_DATE, "startDate", element: symbols[Int(type)], line: line)
            _ = requiredDate(a, HSAX_A_END_DATE, "endDate", element: symbols[Int(type)], line: line)
            return
        }
        guard plausible(startDate), plausible(endDate) else {
            let (name, t) = plausible(startDate) ? ("endDate", endDate) : ("startDate", startDate)
            diagnose(.implausibleDate, implausible(symbols[Int(type)], name, t), line: line)
            return
        }
        let value: RecordValue
        if let unitValue = a.raw(HSAX_A_UNIT), unitValue.length > 0 {
            let unit = symbol(unitValue, .unit)
            guard let raw = a.bytes(HSAX_A_VALUE) else {
                diagnose(.missingAttribute, "\(symbols[Int(type)]) with a unit but no value", line: line)
                rejected(startDate)
                return
            }
            guard let number = decodeDouble(raw) else {
                diagnose(.nonNumericValue, "value=\(quoted(raw)) on \(symbols[Int(type)])", line: line)
                rejected(startDate)
                return
            }
            guard let c = conversion(unit) else {
                diagnose(.unknownUnit, "unit \(quoted(a.bytes(HSAX_A_UNIT))) on \(symbols[Int(type)])", line: line)
                rejected(startDate)
                return
            }
            let converted = c.apply(number)
            guard abs(number) <= Self.largestValue, abs(converted) <= Self.largestValue else {
                diagnose(
                    .valueOutOfRange, "value=\(quoted(raw)) on \(symbols[Int(type)]) is beyond ±3.4e38", line: line)
                rejected(startDate)
                return
            }
            value = .quantity(
                Quantity(value: converted, unit: c.unit, originalValue: number, originalUnit: symbols[Int(unit)]))
        } else if let v = a.raw(HSAX_A_VALUE) {
            let kind = typeKind(type)
            if kind == 1 {
                value = .category(categoryValue(symbol(v, .categoryValue)))
            } else if kind == 2 {
                // A quantity without a unit cannot be converted or added up.
                diagnose(.missingAttribute, "\(symbols[Int(type)]) with a value but no unit", line: line)
                rejected(startDate)
                return
            } else {
                value = .none(
                    String(decoding: UnsafeBufferPointer(start: v.bytes, count: Int(v.length)), as: UTF8.self))
            }
        } else {
            value = .none(nil)
        }
        let source = symbol(sourceValue, .source)
        // Every field in a local first, without closures in the record's argument list.
        var sourceVersion: String? = nil
        if let v = a.raw(HSAX_A_SOURCE_VERSION) { sourceVersion = symbols[Int(symbol(v, .sourceVersion))] }
        var recordDevice: Device? = nil
        if let v = a.raw(HSAX_A_DEVICE) { recordDevice = device(v) }
        var creationDate: Timestamp? = nil
        if let b = a.bytes(HSAX_A_CREATION_DATE) {
            if let t = creationDates.decode(b), plausible(t) {
                creationDate = t
            } else {
                creationDate = optionalDate(
                    a, HSAX_A_CREATION_DATE, "creationDate", element: symbols[Int(type)], line: line)
            }
        }
        recordIndex = batch.records.count
        // The memberwise initializer (see `Record.line`): built in place, without a copy.
        batch.records.append(
            Record(
                line: Int(line), type: symbols[Int(type)], typeSymbol: type, value: value,
                sourceName: symbols[Int(source)], sourceSymbol: source, sourceVersion: sourceVersion,
                device: recordDevice, creationDate: creationDate, startDate: startDate, endDate: endDate, metadata: [],
                heartbeats: [], isNestedInCorrelation: nested))
    }

    func metadataEntry(_ a: Attributes, parent: Int32) {
        guard let keyValue = a.raw(HSAX_A_KEY) else { return }
        let key = symbols[Int(symbol(keyValue, .metadataKey))]
        let value = a.string(HSAX_A_VALUE) ?? ""
        let entry = MetadataEntry(key: key, value: value)
        // An HKTimeZone counts only where its element is kept (and so stored by an import): the
        // zone of a workout dropped for an unreadable date must not choose the report's zone, or
        // `report` and `report --db` would choose differently (docs/days-and-time-zones.md §4).
        var kept = true
        switch hsax_element_id(rawValue: UInt32(parent)) {
        case HSAX_EL_RECORD:
            if recordIndex >= 0 { batch.records[recordIndex].metadata.append(entry) } else { kept = false }
        case HSAX_EL_WORKOUT:
            kept = workout != nil
            workout?.metadata.append(entry)
        case HSAX_EL_WORKOUT_EVENT:
            kept = event != nil
            event?.metadata.append(entry)
        case HSAX_EL_WORKOUT_ACTIVITY:
            kept = activity != nil
            activity?.metadata.append(entry)
        case HSAX_EL_WORKOUT_ROUTE:
            kept = route != nil
            route?.metadata.append(entry)
        case HSAX_EL_CORRELATION:
            kept = correlation != nil
            correlation?.metadata.append(entry)
        case HSAX_EL_AUDIOGRAM:
            // (The archive does not store audiograms: their zones do not count either.)
            kept = false
            audiogram?.metadata.append(entry)
        default: break
        }
        if kept && key == MetadataKey.timeZone { timeZoneCounts[value, default: 0] += 1 }
    }

    func startCorrelation(_ a: Attributes, line: Int32) {
        correlation = nil
        guard let attributes = sampleAttributes(a, element: "Correlation", line: line) else { return }
        correlation = Correlation(
            type: a.string(HSAX_A_TYPE) ?? "", attributes: attributes, metadata: [], records: [], line: Int(line))
    }

    // MARK: Workouts

    func startWorkout(_ a: Attributes, line: Int32) {
        workout = nil
        guard let attributes = sampleAttributes(a, element: "Workout", line: line) else { return }
        workout = Workout(
            activityType: a.string(HSAX_A_WORKOUT_ACTIVITY_TYPE) ?? "",
            durationMinutes: optionalQuantity(
                a, value: HSAX_A_DURATION, unit: HSAX_A_DURATION_UNIT, expected: .minute, "duration",
                element: "Workout", line: line),
            totalDistanceKm: optionalQuantity(
                a, value: HSAX_A_TOTAL_DISTANCE, unit: HSAX_A_TOTAL_DISTANCE_UNIT, expected: .kilometre,
                "totalDistance", element: "Workout", line: line),
            totalEnergyBurnedKcal: optionalQuantity(
                a, value: HSAX_A_TOTAL_ENERGY_BURNED, unit: HSAX_A_TOTAL_ENERGY_BURNED_UNIT, expected: .kilocalorie,
                "totalEnergyBurned", element: "Workout", line: line),
            attributes: attributes, metadata: [], events: [], statistics: [], activities: [], routes: [],
            line: Int(line))
    }

    func workoutStatistics(_ a: Attributes, parent: Int32, line: Int32) {
        guard let startDate = requiredDate(a, HSAX_A_START_DATE, "startDate", element: "WorkoutStatistics", line: line),
            let endDate = requiredDate(a, HSAX_A_END_DATE, "endDate", element: "WorkoutStatistics", line: line)
        else { return }
        var conversion: UnitConversion? = UnitConversion(.count)
        var unit: CanonicalUnit?
        let unitString = a.raw(HSAX_A_UNIT).map { symbols[Int(symbol($0))] }
        if let u = a.raw(HSAX_A_UNIT) {
            conversion = self.conversion(symbol(u))
            unit = conversion?.unit
            if conversion == nil {
                diagnose(
                    .ignoredAttribute, "WorkoutStatistics unit \(quoted(a.bytes(HSAX_A_UNIT))) unknown; values ignored",
                    line: line)
            }
        }
        func value(_ id: hsax_attribute_id, _ name: String) -> Double? {
            guard let conversion else { return nil }
            return optionalNonNegativeNumber(a, id, name, element: "WorkoutStatistics", line: line).map(
                conversion.apply)
        }
        let stat = WorkoutStatistics(
            type: a.string(HSAX_A_TYPE) ?? "", startDate: startDate, endDate: endDate, sum: value(HSAX_A_SUM, "sum"),
            average: value(HSAX_A_AVERAGE, "average"), minimum: value(HSAX_A_MINIMUM, "minimum"),
            maximum: value(HSAX_A_MAXIMUM, "maximum"), unit: unit, originalUnit: unitString)
        if parent == Int32(HSAX_EL_WORKOUT_ACTIVITY.rawValue) {
            activity?.statistics.append(stat)
        } else {
            workout?.statistics.append(stat)
        }
    }

    /// Fills the totals that current exports leave out from the workout's own statistics
    /// (never from its activities' statistics, which are sub-totals; docs/export-format.md §7.7).
    func finishWorkoutTotals(_ w: inout Workout) {
        if w.totalEnergyBurnedKcal == nil,
            let s = w.statistics(for: "HKQuantityTypeIdentifierActiveEnergyBurned"), s.unit == .kilocalorie
        {
            w.totalEnergyBurnedKcal = s.sum
        }
        if w.totalDistanceKm == nil {
            let distances = w.statistics.filter {
                $0.type.hasPrefix("HKQuantityTypeIdentifierDistance") && $0.unit == .kilometre && $0.sum != nil
            }
            if !distances.isEmpty { w.totalDistanceKm = distances.reduce(0) { $0 + $1.sum! } }
        }
    }

    func location(_ a: Attributes, line: Int32) {
        guard route != nil,
            let date = requiredDate(a, HSAX_A_DATE, "date", element: "Location", line: line),
            let lat = optionalNumber(a, HSAX_A_LATITUDE, "latitude", element: "Location", line: line),
            let lon = optionalNumber(a, HSAX_A_LONGITUDE, "longitude", element: "Location", line: line)
        else { return }
        func n(_ id: hsax_attribute_id, _ name: String) -> Double? {
            optionalNumber(a, id, name, element: "Location", line: line)
        }
        route!.locations.append(
            RouteLocation(
                date: date, latitude: lat, longitude: lon, altitude: n(HSAX_A_ALTITUDE, "altitude"),
                horizontalAccuracy: n(HSAX_A_HORIZONTAL_ACCURACY, "horizontalAccuracy"),
                verticalAccuracy: n(HSAX_A_VERTICAL_ACCURACY, "verticalAccuracy"), course: n(HSAX_A_COURSE, "course"),
                speed: n(HSAX_A_SPEED, "speed")))
    }

    // MARK: Activity summaries

    func activitySummary(_ a: Attributes, line: Int32) {
        guard let dc = a.bytes(HSAX_A_DATE_COMPONENTS) else {
            diagnose(.missingAttribute, "ActivitySummary without dateComponents", line: line)
            return
        }
        guard let date = CivilDate(String(decoding: dc, as: UTF8.self)) else {
            diagnose(.badDate, "ActivitySummary dateComponents=\(quoted(dc))", line: line)
            return
        }
        // The local date's midnight in UTC: plausible when from 1900 to a day after ExportDate.
        let midnight = Timestamp(secondsSince1970: Int64(date.daysSince1970) * 86_400)
        guard plausible(midnight) else {
            diagnose(.implausibleDate, implausible("ActivitySummary", "dateComponents", midnight), line: line)
            return
        }
        let e = "ActivitySummary"
        func n(_ id: hsax_attribute_id, _ name: String) -> Double? {
            optionalNonNegativeNumber(a, id, name, element: e, line: line)
        }
        func energy(_ id: hsax_attribute_id, _ name: String) -> Double? {
            optionalQuantity(
                a, value: id, unit: HSAX_A_ACTIVE_ENERGY_BURNED_UNIT, expected: .kilocalorie, name, element: e,
                line: line)
        }
        batch.activitySummaries.append(
            ActivitySummary(
                date: date, activeEnergyBurnedKcal: energy(HSAX_A_ACTIVE_ENERGY_BURNED, "activeEnergyBurned"),
                activeEnergyBurnedGoalKcal: energy(HSAX_A_ACTIVE_ENERGY_BURNED_GOAL, "activeEnergyBurnedGoal"),
                activeEnergyBurnedUnit: a.string(HSAX_A_ACTIVE_ENERGY_BURNED_UNIT),
                appleMoveTimeMinutes: n(HSAX_A_APPLE_MOVE_TIME, "appleMoveTime")
                    ?? n(HSAX_A_APPLE_MOVE_MINUTES, "appleMoveMinutes"),
                appleMoveTimeGoalMinutes: n(HSAX_A_APPLE_MOVE_TIME_GOAL, "appleMoveTimeGoal")
                    ?? n(HSAX_A_APPLE_MOVE_MINUTES_GOAL, "appleMoveMinutesGoal"),
                appleExerciseTimeMinutes: n(HSAX_A_APPLE_EXERCISE_TIME, "appleExerciseTime"),
                appleExerciseTimeGoalMinutes: n(HSAX_A_APPLE_EXERCISE_TIME_GOAL, "appleExerciseTimeGoal"),
                appleStandHours: n(HSAX_A_APPLE_STAND_HOURS, "appleStandHours"),
                appleStandHoursGoal: n(HSAX_A_APPLE_STAND_HOURS_GOAL, "appleStandHoursGoal"), line: Int(line)))
        elementDone()
    }
}
